// One audit line and its hash, defined once for writer, verifier and exporter: sha256 of the canonical
// JSON of every member but `hash` (`prev` included; the first `prev` is GENESIS_HASH), so a changed,
// removed, inserted or reordered line breaks its hash, the `seq` run or the next `prev`.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AuditEntryInput } from '../ports/store.js';
import { StoreCorruptError } from './errors.js';

/** `prev` of the first line. */
export const GENESIS_HASH = '0'.repeat(64);

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits');

/** What a line must look like (checked by verify and when the writer reopens the log). */
export const AuditLineSchema = z.object({
  seq: z.number().int().positive(),
  ts: z.iso.datetime(),
  type: z.string().min(1),
  actor: z.string(),
  requestId: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  prev: hex64,
  hash: hex64,
});

export type AuditEntry = z.infer<typeof AuditLineSchema>;

/** JSON with object keys sorted at every level; input must already be plain JSON values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object)
      .filter((k) => object[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash a line should carry: over all its members but `hash` (so an added member counts too). */
export function hashOfLine(line: Record<string, unknown>): string {
  const { hash: _ignored, ...content } = line;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** As the line will be read back: toJSON applied (Secret -> [redacted]), undefined dropped, bigint as a decimal string. */
export function toPlainJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as unknown;
}

/** What an entry says, checked and redacted: everything but its place in the chain and its time. */
export type AuditBody = Pick<AuditEntry, 'type' | 'actor' | 'requestId' | 'data'>;

/** Where a chain continues: the last entry's seq and hash (0 and GENESIS_HASH when empty). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** Checked, made plain JSON and redacted: every audit log builds its entries with this. */
export function auditBody(input: AuditEntryInput, redact: (value: unknown) => unknown): AuditBody {
  if (typeof input.type !== 'string' || input.type.length === 0)
    throw new TypeError('audit entry: type must be a non-empty string');
  if (typeof input.actor !== 'string') throw new TypeError('audit entry: actor must be a string');
  return redact(
    toPlainJson({ type: input.type, actor: input.actor, requestId: input.requestId, data: input.data }),
  ) as AuditBody;
}

/** The entry that follows `head`, and its line (JSON, no newline). */
export function chainEntry(body: AuditBody, ts: string, head: ChainHead): { entry: AuditEntry; line: string } {
  const content = {
    seq: head.seq + 1,
    ts,
    type: body.type,
    actor: body.actor,
    ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
    ...(body.data === undefined ? {} : { data: body.data }),
    prev: head.hash,
  };
  const entry: AuditEntry = { ...content, hash: hashOfLine(content) };
  return { entry, line: JSON.stringify(entry) };
}

/** The last line, checked on its own so nothing is chained onto a bad one (StoreCorruptError); the whole chain is verify's, so opening stays fast. */
export function headOf(where: string, text: string): ChainHead {
  const problem = 'its last line is not a valid audit entry';
  const hint = 'run `npm run audit -- verify` to find the first bad line';
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new StoreCorruptError(where, `${problem} (not JSON); ${hint}`);
  }
  const parsed = AuditLineSchema.safeParse(raw);
  if (!parsed.success) throw new StoreCorruptError(where, `${problem} (${parsed.error.issues[0]?.message}); ${hint}`);
  if (hashOfLine(raw as Record<string, unknown>) !== parsed.data.hash) {
    throw new StoreCorruptError(where, `${problem} (its hash does not match its content); ${hint}`);
  }
  return { seq: parsed.data.seq, hash: parsed.data.hash };
}
