/**
 * The sandbox panel: what a desk cannot make happen on demand. Move the sandbox clock on (statuses
 * advance, quotes expire), inject a deposit, move a price, and make the exchange slow, hang, lose
 * an answer or commit late, to watch a re-quote, a re-approval or an unknown outcome unfold.
 */
import { useState } from 'preact/hooks';
import { LABELS, PANEL_FAULTS, PANEL_FAULT_TARGETS, type PanelFault, type PanelFaultTarget, type SandboxState } from '../../protocol.js';
import { sandboxOp } from '../live/api.js';
import { formatSlackDate } from '../mrkdwn/dates.js';
import { useDesk } from '../shell/desk.js';
import { Field, OpResult, PanelSection, useOp } from './op-button.js';
import { useSandbox } from './use-sandbox.js';

const STEPS = [
  { label: '+1 min', ms: 60_000 },
  { label: '+10 min', ms: 600_000 },
  { label: '+1 h', ms: 3_600_000 },
  { label: '+1 day', ms: 86_400_000 },
];

/** A decimal string as the sandbox takes it: digits and one point, no sign, no exponent. */
const DECIMAL = /^\d+(\.\d+)?$/;

export function SandboxPanel() {
  const desk = useDesk();
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
        {state ? <Controls state={state} tz={desk.me.tz} refresh={refresh} /> : !error && <p class="empty">Reading the sandbox…</p>}
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

function Clock({ state, tz, refresh }: { state: SandboxState; tz: string; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const seconds = Math.floor(state.now / 1000);
  return (
    <PanelSection title="Clock">
      <p class="clock">
        <time dateTime={new Date(state.now).toISOString()} aria-label="Sandbox time">
          {formatSlackDate(seconds, '{date_short} {time_secs}', tz, Date.now())}
        </time>
        <span class="clock-zone"> ({tz})</span>
      </p>
      <div class="button-row" role="group" aria-label="Move time on">
        {STEPS.map((s) => (
          <button key={s.label} type="button" class="kit-button" disabled={op.busy} onClick={() => void op.run(() => sandboxOp('advance', { ms: s.ms }), `Moved on ${s.label.slice(1)}.`)}>
            {s.label}
          </button>
        ))}
      </div>
      <OpResult result={op.result} />
    </PanelSection>
  );
}

function Deposit({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const [currency, setCurrency] = useState(state.currencies[0] ?? '');
  const [amount, setAmount] = useState('');
  const [needsInfo, setNeedsInfo] = useState(true);
  const valid = currency !== '' && DECIMAL.test(amount);
  return (
    <PanelSection title="Inject a deposit">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void op.run(() => sandboxOp('deposit', { currency, amount, needsCounterpartyInfo: needsInfo }), `Deposit of ${amount} ${currency} arrived.`);
        }}
      >
        <Field id="sandbox-deposit-currency" label="Deposit currency">
          <select id="sandbox-deposit-currency" value={currency} onChange={(e) => setCurrency((e.currentTarget as HTMLSelectElement).value)}>
            {state.currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-deposit-amount" label="Deposit amount">
          <input id="sandbox-deposit-amount" type="text" inputMode="decimal" placeholder="e.g. 0.75" value={amount} onInput={(e) => setAmount((e.currentTarget as HTMLInputElement).value.trim())} />
        </Field>
        <label class="check">
          <input type="checkbox" checked={needsInfo} onChange={(e) => setNeedsInfo((e.currentTarget as HTMLInputElement).checked)} />
          <span>Needs the sender declared (Travel Rule)</span>
        </label>
        <button type="submit" class="kit-button primary" disabled={!valid || op.busy}>
          Inject deposit
        </button>
      </form>
      <OpResult result={op.result} />
    </PanelSection>
  );
}

function Price({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const [symbol, setSymbol] = useState(state.prices[0]?.symbol ?? '');
  const [price, setPrice] = useState('');
  const current = state.prices.find((p) => p.symbol === symbol)?.price;
  const valid = symbol !== '' && DECIMAL.test(price);
  return (
    <PanelSection title="Move a price">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void op.run(() => sandboxOp('price', { symbol, price }), `${symbol} is now ${price}.`);
        }}
      >
        <Field id="sandbox-price-of" label="Price of">
          <select id="sandbox-price-of" value={symbol} onChange={(e) => setSymbol((e.currentTarget as HTMLSelectElement).value)}>
            {state.prices.map((p) => (
              <option key={p.symbol} value={p.symbol}>
                {p.symbol} (now {p.price})
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-new-price" label="New price">
          <input id="sandbox-new-price" type="text" inputMode="decimal" placeholder={current ?? 'e.g. 65000'} value={price} onInput={(e) => setPrice((e.currentTarget as HTMLInputElement).value.trim())} />
        </Field>
        <button type="submit" class="kit-button primary" disabled={!valid || op.busy}>
          Set price
        </button>
      </form>
      <OpResult result={op.result} />
    </PanelSection>
  );
}

function Faults({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const [fault, setFault] = useState<PanelFault>('slow');
  const [on, setOn] = useState<PanelFaultTarget>('withdrawals');
  const [times, setTimes] = useState('1');
  const count = times.trim() === '' ? undefined : Number(times);
  const valid = count === undefined || (Number.isInteger(count) && count > 0);
  return (
    <PanelSection title="Faults">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void op.run(() => sandboxOp('fault', { fault, on, ...(count !== undefined ? { times: count } : {}) }), `Fault set: ${PANEL_FAULTS[fault]}.`);
        }}
      >
        <Field id="sandbox-fault" label="Fault">
          <select id="sandbox-fault" value={fault} onChange={(e) => setFault((e.currentTarget as HTMLSelectElement).value as PanelFault)}>
            {(Object.keys(PANEL_FAULTS) as PanelFault[]).map((f) => (
              <option key={f} value={f}>
                {PANEL_FAULTS[f]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-fault-on" label="Fault on">
          <select id="sandbox-fault-on" value={on} onChange={(e) => setOn((e.currentTarget as HTMLSelectElement).value as PanelFaultTarget)}>
            {(Object.keys(PANEL_FAULT_TARGETS) as PanelFaultTarget[]).map((t) => (
              <option key={t} value={t}>
                {PANEL_FAULT_TARGETS[t]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-fault-times" label="Times (empty: until cleared)">
          <input id="sandbox-fault-times" type="text" inputMode="numeric" value={times} onInput={(e) => setTimes((e.currentTarget as HTMLInputElement).value)} aria-invalid={!valid || undefined} />
        </Field>
        <div class="button-row">
          <button type="submit" class="kit-button primary" disabled={!valid || op.busy}>
            Set fault
          </button>
          <button type="button" class="kit-button" disabled={op.busy || state.faults.length === 0} onClick={() => void op.run(() => sandboxOp('clear-faults', {}), 'Faults cleared.')}>
            Clear faults
          </button>
        </div>
      </form>
      <OpResult result={op.result} />
      <h4 id="active-faults">Active faults</h4>
      {state.faults.length === 0 ? (
        <p class="empty">None: the exchange answers normally.</p>
      ) : (
        <ul aria-labelledby="active-faults" class="fault-list">
          {state.faults.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      )}
    </PanelSection>
  );
}
