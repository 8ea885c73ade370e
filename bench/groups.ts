/** The groups of `npm run bench`, in the order they run; each measures at the scale it is given. */
import type { BenchRow } from './row.js';
import type { Scale } from './scale.js';

export type Bench = (scale: Scale) => Promise<BenchRow[]>;

/** Loaded lazily so a module that fails to load is reported as a row, not a crash of the run. */
export const BENCH_GROUPS: ReadonlyArray<readonly [string, () => Promise<Bench>]> = [
  ['exchange', async () => (await import('./exchange.js')).benchExchange],
  ['store', async () => (await import('./store.js')).benchStore],
  ['postgres', async () => (await import('./postgres.js')).benchPostgres],
  ['replicas', async () => (await import('./replicas.js')).benchReplicas],
  ['engine', async () => (await import('./engine.js')).benchEngine],
  ['slack', async () => (await import('./slack.js')).benchSlack],
  ['polling', async () => (await import('./polling.js')).benchPolling],
  ['memory', async () => (await import('./memory.js')).benchMemory],
  ['local-desk', async () => (await import('./local-desk.js')).benchLocalDesk],
  ['edge', async () => (await import('./edge.js')).benchEdge],
];
