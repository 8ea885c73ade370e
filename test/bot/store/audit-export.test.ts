import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportAuditCsv, openAuditLog } from '../../../src/bot/store/audit-log.js';
import { csvCell } from '../../../src/bot/store/csv.js';
import { tempDir } from './support/temp.js';

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF rows) to check what a spreadsheet would read. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

async function logAt(
  times: string[],
  entry: (i: number) => { type: string; actor: string; requestId?: string; data?: Record<string, unknown> },
) {
  const file = join(tempDir(), 'audit.jsonl');
  let i = 0;
  const log = await openAuditLog({ file, clock: { now: () => Date.parse(times[i]!) } });
  for (; i < times.length; i++) await log.append(entry(i));
  await log.close();
  return file;
}

describe('exportAuditCsv', () => {
  it('exports from <= ts < to, with a header row and CRLF rows', async () => {
    const file = await logAt(
      ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'],
      (i) => ({ type: `t${i}`, actor: 'system' }),
    );
    const csv = await exportAuditCsv(file, { from: '2025-01-02T00:00:00Z', to: '2025-01-03T00:00:00Z' });
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(['seq', 'ts', 'type', 'actor', 'requestId', 'data', 'prev', 'hash']);
    expect(rows.slice(1).map((r) => r[2])).toEqual(['t1']);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(
      parseCsv(await exportAuditCsv(file, { from: '2025-01-02' }))
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(['t1', 't2']);
    expect(parseCsv(await exportAuditCsv(file)).length).toBe(4);
  });

  it('quotes commas, quotes and newlines so they read back exactly, and defuses formulas', async () => {
    const file = await logAt(['2025-01-01T00:00:00.000Z'], () => ({
      type: '=HYPERLINK("http://x","click")',
      actor: '@U1, "the boss"',
      requestId: '-R1',
      data: { note: 'two\nlines, "quoted"', b: 1, a: 2 },
    }));
    const row = parseCsv(await exportAuditCsv(file))[1]!;
    expect(row[2]).toBe(`'=HYPERLINK("http://x","click")`);
    expect(row[3]).toBe(`'@U1, "the boss"`);
    expect(row[4]).toBe(`'-R1`);
    expect(row[5]).toBe('{"a":2,"b":1,"note":"two\\nlines, \\"quoted\\""}');
    expect(JSON.parse(readFileSync(file, 'utf8')).hash).toBe(row[7]);
  });

  it('refuses a range it would have to guess the time zone of, or upside down', async () => {
    const file = await logAt(['2025-01-01T00:00:00.000Z'], () => ({ type: 't', actor: 'a' }));
    await expect(exportAuditCsv(file, { from: '2025-01-01T00:00:00' })).rejects.toThrow(/offset/);
    await expect(exportAuditCsv(file, { from: 'yesterday' })).rejects.toThrow(/not a date|offset/);
    await expect(exportAuditCsv(file, { from: '2025-02-01', to: '2025-01-01' })).rejects.toThrow(/after/);
  });
});

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\r\nbreak', '"line\r\nbreak"'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['=a,b', `"'=a,b"`],
    ['', ''],
  ])('%j -> %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });
});
