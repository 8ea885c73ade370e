// Append-only history of finished records, one fdatasync'd JSON line per version. Memory stays bounded:
// only id -> (offset, length) is kept, built and validated by one streaming read at open.
import { closeSync, openSync } from 'node:fs';
import { appendDurably } from './durable-io.js';
import { StoreCorruptError } from './errors.js';
import { dropIncompleteTail, readAt, scanLines } from './json-lines.js';
import type { Checked } from './schema-check.js';

interface IndexEntry {
  readonly id: string;
  readonly offset: number;
  /** Bytes, without the newline. */
  readonly length: number;
}

export class HistoryFile<R extends { id: string }> {
  readonly path: string;
  readonly #fd: number;
  readonly #parse: (value: unknown) => Checked<R>;
  /** Latest line per id: a finished record updated again is appended again, the newest wins. */
  readonly #byId = new Map<string, IndexEntry>();
  /** Every line in file order, for reading the most recent ones. */
  readonly #order: IndexEntry[] = [];
  #end: number;

  private constructor(path: string, fd: number, parse: (value: unknown) => Checked<R>, end: number) {
    this.path = path;
    this.#fd = fd;
    this.#parse = parse;
    this.#end = end;
  }

  /** Every complete line must match the schema (StoreCorruptError); a torn last line (never acknowledged) is cut off, a copy kept. */
  static async open<R extends { id: string }>(
    path: string,
    parse: (value: unknown) => Checked<R>,
    warn: (message: string) => void,
  ): Promise<HistoryFile<R>> {
    const entries: IndexEntry[] = [];
    let scan = { completeEnd: 0, size: 0 };
    try {
      scan = await scanLines(path, (line) => {
        let value: unknown;
        try {
          value = JSON.parse(line.text);
        } catch (err) {
          throw new StoreCorruptError(path, `not valid JSON (${(err as Error).message})`, line.lineNo);
        }
        const checked = parse(value);
        if (!checked.ok)
          throw new StoreCorruptError(path, `record does not match the schema: ${checked.problem}`, line.lineNo);
        entries.push({ id: checked.value.id, offset: line.offset, length: line.length });
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const dropped = dropIncompleteTail(path, scan.completeEnd, scan.size);
    if (dropped > 0) {
      warn(
        `${path}: dropped an incomplete last line of ${dropped} bytes (an append interrupted by a crash, ` +
          `never acknowledged); a copy is in ${path}.torn-${scan.completeEnd}`,
      );
    }
    // 'a': every write goes to the end whatever the position; reads use explicit positions.
    const fd = openSync(path, 'a+', 0o600);
    const history = new HistoryFile(path, fd, parse, scan.completeEnd);
    for (const entry of entries) history.#index(entry);
    return history;
  }

  get lines(): number {
    return this.#order.length;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The latest finished version of `id`, read from disk. */
  get(id: string): R | undefined {
    const entry = this.#byId.get(id);
    return entry === undefined ? undefined : this.#read(entry);
  }

  /** Appends `record` and returns once it is on disk (this is the commit point of a finish). */
  append(record: R): void {
    const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    appendDurably(this.#fd, line);
    this.#index({ id: record.id, offset: this.#end, length: line.length - 1 });
    this.#end += line.length;
  }

  /** Up to `limit` records, most recently finished first, each id once (its latest version). */
  recent(limit: number): R[] {
    const out: R[] = [];
    for (let i = this.#order.length - 1; i >= 0 && out.length < limit; i--) {
      const entry = this.#order[i]!;
      if (this.#byId.get(entry.id) === entry) out.push(this.#read(entry));
    }
    return out;
  }

  /**
   * The latest versions finished at or after `since` (their `updatedAt`), newest first: history is
   * appended in finishing order, so the walk stops at the first older one.
   */
  since(since: number, updatedAt: (record: R) => number): R[] {
    const out: R[] = [];
    for (let i = this.#order.length - 1; i >= 0; i--) {
      const entry = this.#order[i]!;
      if (this.#byId.get(entry.id) !== entry) continue;
      const record = this.#read(entry);
      if (updatedAt(record) < since) break;
      out.push(record);
    }
    return out;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #index(entry: IndexEntry): void {
    this.#order.push(entry);
    this.#byId.set(entry.id, entry);
  }

  #read(entry: IndexEntry): R {
    const checked = this.#parse(JSON.parse(readAt(this.#fd, entry.offset, entry.length)));
    // Validated at open and written by us since: a failure here means the file changed under us.
    if (!checked.ok) throw new StoreCorruptError(this.path, `record ${entry.id} changed on disk: ${checked.problem}`);
    return checked.value;
  }
}
