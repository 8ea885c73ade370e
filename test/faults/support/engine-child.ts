/**
 * The bot as a separate process for the crash trials: the engine on file stores in DATA_DIR with
 * the real client against the sandbox URL, running a fault plan (plan.ts) until it settles.
 * Configuration comes from the environment, as the real bot's does:
 *   DESK_PRIVATE_KEY     the exchange key (hex or PEM)
 *   FAULT_CHILD_CONFIG   JSON ChildConfig
 * stdout carries one JSON line per event (`started`, `settled`); stderr carries logs.
 */
import type { EngineConfigInput } from '../../../src/bot/engine/engine-config.js';
import { openFaultBot } from './desk.js';
import { KillSwitch } from './kill-switch.js';
import { runPlan, type PlanItem } from './plan.js';
import { useShortLeases } from './leases.js';

export interface ChildConfig {
  dataDir: string;
  sandboxUrl: string;
  plan: PlanItem[];
  /** Die by SIGKILL at this step (kill-switch.ts); absent: run to the end. */
  killAtStep?: number;
  /** Give up (exit 3) after this long. */
  deadlineMs: number;
  engineConfig?: EngineConfigInput;
  clientTimeoutMs?: number;
}

const config = JSON.parse(process.env.FAULT_CHILD_CONFIG ?? '{}') as ChildConfig;
const emit = (event: Record<string, unknown>) => process.stdout.write(JSON.stringify(event) + '\n');
const log = (level: string) => (message: string, data?: Record<string, unknown>) =>
  process.stderr.write(`${level}: ${message} ${data ? JSON.stringify(data) : ''}\n`);
const kill = new KillSwitch(config.killAtStep);

// A supervisor restarts a killed bot at once, and the new life takes the killed one's store leases at once.
useShortLeases();
const desk = await openFaultBot({
  dataDir: config.dataDir,
  sandboxUrl: config.sandboxUrl,
  privateKey: process.env.DESK_PRIVATE_KEY ?? '',
  engineConfig: config.engineConfig ?? {},
  client: { timeoutMs: config.clientTimeoutMs ?? 2_000 },
  logger: { info: () => {}, warn: log('warn'), error: log('error') },
  warn: log('store'),
  wrap: {
    exchange: (p) => kill.wrap(p),
    requests: (p) => kill.wrap(p),
    kv: (p) => kill.wrap(p),
    audit: (p) => kill.wrap(p),
  },
});
emit({ event: 'started', pid: process.pid });
const outcome = await runPlan(
  desk.engine,
  config.plan,
  Date.now() + config.deadlineMs,
  () => new Promise((r) => setTimeout(r, 40)),
);
emit({
  event: outcome.settled ? 'settled' : 'deadline',
  steps: kill.steps,
  states: outcome.records.map((r) => [r.id, r.state]),
});
await desk.close();
process.exit(outcome.settled ? 0 : 3);
