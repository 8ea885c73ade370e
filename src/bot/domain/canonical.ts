// Canonical JSON (keys sorted, no whitespace, undefined dropped) and its SHA-256, so a hash can
// stand for "exactly this content".
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level; throws on values JSON cannot carry faithfully. */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      // A float in a hashed snapshot would be a money bug waiting to happen: integers only.
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON takes safe integers only, got ${value}`);
      return String(value);
    case 'object':
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonical JSON cannot carry a ${typeof value}`);
  }
}

function canonicalArray(items: unknown[]): string {
  return `[${items.map((item) => canonicalJson(item)).join(',')}]`;
}

function canonicalObject(object: Record<string, unknown>): string {
  const keys = Object.keys(object)
    .filter((key) => object[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
