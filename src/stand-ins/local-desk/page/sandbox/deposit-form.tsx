/** Inject a deposit on the sandbox, with or without a sender to declare (Travel Rule). */
import { useState } from 'preact/hooks';
import type { SandboxState } from '../../protocol.js';
import { sandboxOp } from '../live/api.js';
import { DECIMAL, Field, OpResult, PanelSection, useOp } from './panel-parts.js';

export function Deposit({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
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
          if (valid)
            void op.run(
              () => sandboxOp('deposit', { currency, amount, needsCounterpartyInfo: needsInfo }),
              `Deposit of ${amount} ${currency} arrived.`,
            );
        }}
      >
        <Field id="sandbox-deposit-currency" label="Deposit currency">
          <select id="sandbox-deposit-currency" value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
            {state.currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-deposit-amount" label="Deposit amount">
          <input
            id="sandbox-deposit-amount"
            type="text"
            inputMode="decimal"
            placeholder="e.g. 0.75"
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value.trim())}
          />
        </Field>
        <label class="check">
          <input type="checkbox" checked={needsInfo} onChange={(e) => setNeedsInfo(e.currentTarget.checked)} />
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
