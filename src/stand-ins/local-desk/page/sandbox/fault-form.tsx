/** Set and clear the exchange's faults (slow, hang, lost answer, late commit), and list the active ones. */
import { useState } from 'preact/hooks';
import {
  PANEL_FAULTS,
  PANEL_FAULT_TARGETS,
  type PanelFault,
  type PanelFaultTarget,
  type SandboxState,
} from '../../protocol.js';
import { sandboxOp } from '../live/api.js';
import { Field, OpResult, PanelSection, useOp } from './panel-parts.js';

export function Faults({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
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
          if (valid)
            void op.run(
              () => sandboxOp('fault', { fault, on, ...(count !== undefined ? { times: count } : {}) }),
              `Fault set: ${PANEL_FAULTS[fault]}.`,
            );
        }}
      >
        <Field id="sandbox-fault" label="Fault">
          <select id="sandbox-fault" value={fault} onChange={(e) => setFault(e.currentTarget.value as PanelFault)}>
            {(Object.keys(PANEL_FAULTS) as PanelFault[]).map((f) => (
              <option key={f} value={f}>
                {PANEL_FAULTS[f]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-fault-on" label="Fault on">
          <select id="sandbox-fault-on" value={on} onChange={(e) => setOn(e.currentTarget.value as PanelFaultTarget)}>
            {(Object.keys(PANEL_FAULT_TARGETS) as PanelFaultTarget[]).map((t) => (
              <option key={t} value={t}>
                {PANEL_FAULT_TARGETS[t]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-fault-times" label="Times (empty: until cleared)">
          <input
            id="sandbox-fault-times"
            type="text"
            inputMode="numeric"
            value={times}
            onInput={(e) => setTimes(e.currentTarget.value)}
            aria-invalid={!valid || undefined}
          />
        </Field>
        <div class="button-row">
          <button type="submit" class="kit-button primary" disabled={!valid || op.busy}>
            Set fault
          </button>
          <button
            type="button"
            class="kit-button"
            disabled={op.busy || state.faults.length === 0}
            onClick={() => void op.run(() => sandboxOp('clear-faults', {}), 'Faults cleared.')}
          >
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
