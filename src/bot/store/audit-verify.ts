/** Checking the audit log's hash chain from the first entry to the last, in a file or a database. */
import { AuditLineSchema, GENESIS_HASH, hashOfLine } from './audit-entry.js';
import { fileAuditLines, type AuditLines } from './audit-lines.js';

export interface AuditVerifyResult {
  ok: boolean;
  /** Lines that verified (all of them when ok). */
  entries: number;
  /** Hash of the last verified line: note it somewhere else to detect a later truncation. */
  lastHash: string;
  /** 1-based position of the first line that does not verify. */
  firstBadLine?: number;
  /** Where that line is, for an operator: "line 3" in a file, "the row with seq 3" in a table. */
  firstBadAt?: string;
  reason?: string;
  /** Bytes after the last newline: an append a crash interrupted; the writer cuts them off. */
  incompleteLastLine?: boolean;
}

export function verifyAuditLog(file: string): Promise<AuditVerifyResult> {
  return verifyAudit(fileAuditLines(file));
}

/**
 * Reports the first line that fails (JSON, shape, own hash, `seq`, `prev`). Dropping lines at the very
 * end cannot be seen by any chain: compare `lastHash` with one recorded elsewhere.
 */
export async function verifyAudit(source: AuditLines): Promise<AuditVerifyResult> {
  let entries = 0;
  let prev = GENESIS_HASH;
  let bad: { line: number; at: string; reason: string } | undefined;
  const scan = await source.scan((line) => {
    if (bad) return;
    const reason = checkLine(line.text, entries + 1, prev);
    if (typeof reason === 'string') bad = { line: line.lineNo, at: line.label, reason };
    else {
      entries++;
      prev = reason.hash;
    }
  });
  const incomplete = scan.incompleteTail ? { incompleteLastLine: true } : {};
  if (bad)
    return {
      ok: false,
      entries,
      lastHash: prev,
      firstBadLine: bad.line,
      firstBadAt: bad.at,
      reason: bad.reason,
      ...incomplete,
    };
  return { ok: true, entries, lastHash: prev, ...incomplete };
}

/** The line's hash, or why it fails. */
function checkLine(text: string, expectedSeq: number, prev: string): { hash: string } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `not valid JSON (${(err as Error).message})`;
  }
  const parsed = AuditLineSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not an audit entry (${issue?.path.join('.') || '(root)'}: ${issue?.message})`;
  }
  const entry = parsed.data;
  if (hashOfLine(raw as Record<string, unknown>) !== entry.hash) {
    return 'its hash does not match its content: this line was changed';
  }
  if (entry.seq !== expectedSeq) {
    return `seq ${entry.seq} where ${expectedSeq} was expected: a line was removed, inserted or moved here`;
  }
  if (entry.prev !== prev) {
    return 'its prev does not match the hash of the line before: a line before it was changed, removed, inserted or moved';
  }
  return { hash: entry.hash };
}
