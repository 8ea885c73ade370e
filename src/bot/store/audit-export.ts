/** The audit log as CSV for a time range, for compliance and accounting. */
import { AuditLineSchema, canonicalJson } from './audit-entry.js';
import { csvRows } from './csv.js';
import { fileAuditLines, type AuditLines } from './audit-lines.js';
import { StoreCorruptError } from './errors.js';

export interface AuditExportRange {
  /** Inclusive; ISO 8601 string or Date. Absent: from the first line. */
  from?: string | Date;
  /** Exclusive; ISO 8601 string or Date. Absent: to the last line. */
  to?: string | Date;
}

export const AUDIT_CSV_COLUMNS = ['seq', 'ts', 'type', 'actor', 'requestId', 'data', 'prev', 'hash'] as const;

/**
 * CSV of the entries with from <= ts < to, cells RFC 4180 quoted and formula-neutralised; does not check the chain.
 * @example exportAuditCsv('data/audit.jsonl', { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' })
 */
export function exportAuditCsv(file: string, range: AuditExportRange = {}): Promise<string> {
  return exportAudit(fileAuditLines(file), range);
}

/** The CSV of `exportAuditCsv` from any audit source (a file, a database table). */
export async function exportAudit(source: AuditLines, range: AuditExportRange = {}): Promise<string> {
  const file = source.where;
  const from = toMillis(range.from, 'from') ?? Number.NEGATIVE_INFINITY;
  const to = toMillis(range.to, 'to') ?? Number.POSITIVE_INFINITY;
  if (from > to) throw new RangeError(`export range: from is after to`);
  const rows: string[][] = [[...AUDIT_CSV_COLUMNS]];
  await source.scan((line) => {
    let raw: unknown;
    try {
      raw = JSON.parse(line.text);
    } catch {
      throw new StoreCorruptError(file, 'not valid JSON', line.lineNo);
    }
    const parsed = AuditLineSchema.safeParse(raw);
    if (!parsed.success) throw new StoreCorruptError(file, 'not an audit entry', line.lineNo);
    const e = parsed.data;
    const ts = Date.parse(e.ts);
    if (ts < from || ts >= to) return;
    rows.push([
      String(e.seq),
      e.ts,
      e.type,
      e.actor,
      e.requestId ?? '',
      e.data === undefined ? '' : canonicalJson(e.data),
      e.prev,
      e.hash,
    ]);
  });
  return csvRows(rows);
}

const ZONED_OR_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/;

function toMillis(value: string | Date | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  // Without an offset JavaScript reads a date-time as local time: refuse rather than guess.
  if (typeof value === 'string' && !ZONED_OR_DATE.test(value)) {
    throw new RangeError(
      `export range: ${name} must be a date (2025-01-31) or a date-time with Z or an offset, got ${value}`,
    );
  }
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`export range: ${name} is not a date: ${String(value)}`);
  return ms;
}
