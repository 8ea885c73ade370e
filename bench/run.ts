// `npm run bench [-- --json]`: every benchmark against real loopback servers, as rows with their targets.
// Nothing here is asserted in `npm test`.
import { BENCH_GROUPS } from './groups.js';
import type { BenchRow } from './row.js';
import type { Scale } from './scale.js';

const USAGE = `usage: npm run bench [-- --only=GROUP[,GROUP…]] [--json] [--smoke]
  groups: ${BENCH_GROUPS.map(([g]) => g).join(', ')}
  --smoke  every path on tiny sizes, to see that each group runs (its figures mean nothing)`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !/^--(json|smoke|help|only=.*)$/.test(a));
  if (args.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  if (unknown.length > 0) {
    console.error(`npm run bench: unknown argument ${unknown.join(' ')}\n${USAGE}`);
    return 2;
  }
  const json = args.includes('--json');
  const scale: Scale = args.includes('--smoke') ? 'smoke' : 'full';
  const only = args
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const groups = BENCH_GROUPS.map(([group]) => group);
  const missing = only?.filter((g) => !groups.includes(g)) ?? [];
  if (only && (missing.length > 0 || only.length === 0)) {
    console.error(
      `npm run bench: no bench group ${missing.map((g) => JSON.stringify(g)).join(', ') || '""'}; the groups are ${groups.join(', ')}`,
    );
    return 2;
  }
  const rows: Array<BenchRow & { group: string }> = [];
  for (const [group, load] of BENCH_GROUPS) {
    if (only && !only.includes(group)) continue;
    try {
      const bench = await load();
      for (const row of await bench(scale)) rows.push({ group, ...row });
    } catch (err) {
      rows.push({
        group,
        name: `${group}: failed to run`,
        value: Number.NaN,
        unit: '',
        target: String(err),
        pass: false,
      });
    }
  }
  if (json) {
    process.stdout.write(JSON.stringify({ node: process.version, scale, rows }, null, 2) + '\n');
  } else {
    printTable(rows);
  }
  return rows.every((r) => r.pass) ? 0 : 1;
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

process.exitCode = await main();
