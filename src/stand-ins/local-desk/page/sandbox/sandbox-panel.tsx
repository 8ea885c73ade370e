// What a desk cannot make happen on demand: move the clock, inject a deposit, move a price, make the
// exchange slow, hang, lose an answer or commit late, to watch re-quotes and unknown outcomes unfold.
import { LABELS, type SandboxState } from '../../protocol.js';
import { useLocalDesk } from '../shell/local-desk.js';
import { Clock } from './clock.js';
import { Deposit } from './deposit-form.js';
import { Faults } from './fault-form.js';
import { Price } from './price-form.js';
import { useSandbox } from './use-sandbox.js';

export function SandboxPanel() {
  const desk = useLocalDesk();
  const { state, error, refresh } = useSandbox(desk.snapshot.version);
  return (
    <section class="sandbox" aria-label={LABELS.sandbox}>
      <header class="pane-header">
        <h2>{LABELS.sandbox}</h2>
        <span class="purpose">the local exchange</span>
      </header>
      <div class="sandbox-body">
        {error && (
          <div class="action-error" role="alert">
            {error}
          </div>
        )}
        {state ? (
          <Controls state={state} tz={desk.me.tz} refresh={refresh} />
        ) : (
          !error && <p class="empty">Reading the sandbox…</p>
        )}
      </div>
    </section>
  );
}

function Controls({ state, tz, refresh }: { state: SandboxState; tz: string; refresh: () => Promise<void> }) {
  return (
    <>
      <Clock state={state} tz={tz} refresh={refresh} />
      <Deposit state={state} refresh={refresh} />
      <Price state={state} refresh={refresh} />
      <Faults state={state} refresh={refresh} />
    </>
  );
}
