/** The sandbox clock in the viewer's zone, and buttons that move it on (statuses advance, quotes expire). */
import type { SandboxState } from '../../protocol.js';
import { sandboxOp } from '../live/api.js';
import { formatSlackDateWithZone } from '../mrkdwn/dates.js';
import { OpResult, PanelSection, useOp } from './panel-parts.js';

const STEPS = [
  { label: '+1 min', ms: 60_000 },
  { label: '+10 min', ms: 600_000 },
  { label: '+1 h', ms: 3_600_000 },
  { label: '+1 day', ms: 86_400_000 },
];

export function Clock({ state, tz, refresh }: { state: SandboxState; tz: string; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const seconds = Math.floor(state.now / 1000);
  return (
    <PanelSection title="Clock">
      <p class="clock">
        <time dateTime={new Date(state.now).toISOString()} aria-label="Sandbox time">
          {formatSlackDateWithZone(seconds, '{date_short} {time_secs}', tz, Date.now())}
        </time>
        <span class="clock-zone"> ({tz})</span>
      </p>
      <div class="button-row" role="group" aria-label="Move time on">
        {STEPS.map((s) => (
          <button
            key={s.label}
            type="button"
            class="kit-button"
            disabled={op.busy}
            onClick={() => void op.run(() => sandboxOp('advance', { ms: s.ms }), `Moved on ${s.label.slice(1)}.`)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <OpResult result={op.result} />
    </PanelSection>
  );
}
