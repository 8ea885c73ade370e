/**
 * `npm run bench`: every benchmark of the project in one run on this machine, a table for people,
 * `npm run bench -- --json` for machines. Each module measures against real loopback servers
 * (the sandbox, a fake Slack Web API) and returns rows; nothing here is asserted in `npm test`.
 */
import type { BenchRow } from './row.js';

type Bench = () => Promise<BenchRow[]>;

/** Loaded lazily so a module that fails to load is reported as a row, not a crash of the run. */
const BENCHES: Array<[string, () => Promise<Bench>]> = [
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

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const rows: Array<BenchRow & { group: string }> = [];
  for (const [group, load] of BENCHES) {
    if (only && only !== group) continue;
    try {
      const bench = await load();
      for (const row of await bench()) rows.push({ group, ...row });
    } catch (err) {
      rows.push({ group, name: `${group}: failed to run`, value: Number.NaN, unit: '', target: String(err), pass: false });
    }
  }
  if (json) {
    process.stdout.write(JSON.stringify({ node: process.version, rows }, null, 2) + '\n');
  } else {
    printTable(rows);
  }
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}

function printTable(rows: Array<BenchRow & { group: string }>): void {
  const cells = rows.map((r) => [r.group, r.name, formatValue(r.value), r.unit, r.target, r.pass ? 'pass' : 'FAIL']);
  const head = ['group', 'measure', 'value', 'unit', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 2 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 1) return v.toFixed(2);
  return v.toFixed(4);
}

await main();
