// A lowdb adapter that writes durably: the stock JSONFile renames a temp file but never fsyncs, so a
// power cut can leave an empty or stale file behind an acknowledged write.
import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { replaceFileDurably, replaceFileDurablySync } from './durable-io.js';
import { StoreCorruptError } from './errors.js';

/** `read`: null when absent, StoreCorruptError when not JSON; `write` resolves after temp, fsync, rename, folder fsync. */
export class DurableJsonFile<T> implements Adapter<T> {
  readonly filename: string;

  constructor(filename: string) {
    this.filename = filename;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.filename, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      const detail = text.length === 0 ? 'the file is empty' : (err as Error).message;
      throw new StoreCorruptError(this.filename, `not valid JSON (${detail})`);
    }
  }

  /** Set by the owner before a write: a burst is waiting, so keep the event loop free (durable-io.ts). */
  offThread = false;

  async write(data: T): Promise<void> {
    // Compact JSON: the file is rewritten on every group commit (`jq .` reads it for people).
    const text = JSON.stringify(data) + '\n';
    if (this.offThread) await replaceFileDurably(this.filename, text);
    else replaceFileDurablySync(this.filename, text);
  }
}
