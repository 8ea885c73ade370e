// Small durable values (polling positions, cursors, "already notified" marks): one lowdb file through
// the durable adapter, one write queue, one lock.
import { mkdirSync } from 'node:fs';
import { DIR_MODE } from './durable-io.js';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { KeyValueStore } from '../ports/store.js';
import { DurableJsonFile } from './durable-adapter.js';
import { StoreClosedError, StoreCorruptError, StoreFailedError } from './errors.js';
import { acquireLock } from './lock.js';
import { GroupCommit } from './group-commit.js';
import { canonicalJson } from '../domain/canonical.js';

/** The key-value store's name when none is given (kv.json; the `store` column in PostgreSQL). */
export const DEFAULT_KV_NAME = 'kv';

export const KV_VERSION = 1;

interface KvFile {
  version: number;
  values: Record<string, unknown>;
}

export interface KeyValueOptions {
  dir: string;
  /** File stem: `kv` gives kv.json and kv.lock. */
  name?: string;
  /** Recoveries worth telling an operator (a lock left by a crashed run taken over). */
  warn?: (message: string) => void;
}

/** The KeyValueStore port plus retention and close() for shutdown (files here, or postgres/kv.ts). */
export interface DurableKeyValueStore extends KeyValueStore {
  /** Committed in its turn among the sets, so a value set just before is the one judged. */
  prune(drop: (key: string, value: unknown) => boolean): Promise<number>;
  /** The keys that start with `prefix` (migrations at start walk them). */
  keys(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface FileKeyValueStore extends DurableKeyValueStore {
  readonly file: string;
}

/** Bad JSON or another version: StoreCorruptError, file left alone. Values come back as JSON would; `set(key, undefined)` deletes. */
export async function openKeyValueStore(options: KeyValueOptions): Promise<FileKeyValueStore> {
  const name = options.name ?? DEFAULT_KV_NAME;
  mkdirSync(options.dir, { recursive: true, mode: DIR_MODE });
  const file = join(options.dir, `${name}.json`);
  const lock = await acquireLock(join(options.dir, `${name}.lock`), options.warn ? { warn: options.warn } : {});
  try {
    const adapter = new DurableJsonFile<KvFile>(file);
    const db = new Low<KvFile>(adapter, { version: KV_VERSION, values: {} });
    const raw = await db.adapter.read();
    if (raw === null) await db.write();
    else db.data = validate(file, raw);

    let failure: StoreFailedError | undefined;
    let closed = false;
    const assertOpen = () => {
      if (closed) throw new StoreClosedError(file);
    };
    // Sets that arrive while one is being written are written together (group-commit.ts); each
    // caller still hears back only once its value is on disk.
    const commits = new GroupCommit<Pending>(async (items) => {
      if (failure) return items.forEach((i) => i.reject(failure));
      const values = { ...db.data.values };
      const counts = new Map<Pending, number>();
      for (const item of items) {
        if ('drop' in item) {
          const gone = Object.entries(values).filter(([key, value]) => item.drop(key, value));
          for (const [key] of gone) delete values[key];
          counts.set(item, gone.length);
        } else if (item.onlyIfAbsent && values[item.key] !== undefined) counts.set(item, 0);
        else if (item.ifValue !== undefined) {
          const held = values[item.key] !== undefined && canonicalJson(values[item.key]) === item.ifValue;
          if (held) delete values[item.key];
          counts.set(item, held ? 1 : 0);
        } else {
          if (item.value === undefined) delete values[item.key];
          else values[item.key] = item.value;
          counts.set(item, 1);
        }
      }
      const before = db.data;
      db.data = { version: KV_VERSION, values };
      // Always through the thread pool: these writes (Slack message references, form markers)
      // follow acknowledgements and bound no money-path latency, so they never hold the loop.
      adapter.offThread = true;
      try {
        lock.assertHeld();
        await db.write();
      } catch (err) {
        db.data = before;
        failure = new StoreFailedError(file, err);
        return items.forEach((i) => i.reject(failure));
      }
      items.forEach((i) => i.resolve(counts.get(i) ?? 0));
    });
    return {
      file,
      async get<T>(key: string): Promise<T | undefined> {
        assertOpen();
        const value = db.data.values[key];
        return value === undefined ? undefined : (structuredClone(value) as T);
      },
      async set<T>(key: string, value: T): Promise<void> {
        assertOpen();
        // Copied now, as JSON: a caller changing its object afterwards cannot change what is stored.
        const json = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
        return new Promise<void>((resolve, reject) =>
          commits.add({ key, value: json, onlyIfAbsent: false, resolve: () => resolve(), reject }),
        );
      },
      async setIfAbsent<T>(key: string, value: T): Promise<boolean> {
        assertOpen();
        const json = JSON.parse(JSON.stringify(value)) as unknown;
        // Judged in its turn among the writes (in the commit), not against what get() sees now:
        // a set queued just before it is already there.
        return new Promise<boolean>((resolve, reject) =>
          commits.add({ key, value: json, onlyIfAbsent: true, resolve: (stored) => resolve(stored === 1), reject }),
        );
      },
      async deleteIf<T>(key: string, expected: T): Promise<boolean> {
        assertOpen();
        const ifValue = canonicalJson(JSON.parse(JSON.stringify(expected)));
        return new Promise<boolean>((resolve, reject) =>
          commits.add({
            key,
            value: undefined,
            onlyIfAbsent: false,
            ifValue,
            resolve: (deleted) => resolve(deleted === 1),
            reject,
          }),
        );
      },
      async keys(prefix: string): Promise<string[]> {
        assertOpen();
        return Object.keys(db.data.values).filter((key) => key.startsWith(prefix));
      },
      async prune(drop: (key: string, value: unknown) => boolean): Promise<number> {
        assertOpen();
        return new Promise<number>((resolve, reject) => commits.add({ drop, resolve, reject }));
      },
      async close(): Promise<void> {
        if (closed) return;
        closed = true;
        await commits.drain();
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Resolves with keys pruned, or 1 when stored (0: set-if-absent found it taken, delete-if found another value). */
type Pending = (
  | { key: string; value: unknown; onlyIfAbsent: boolean; ifValue?: string }
  | { drop: (key: string, value: unknown) => boolean }
) & {
  resolve: (count: number) => void;
  reject: (reason: unknown) => void;
};

function validate(file: string, raw: unknown): KvFile {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new StoreCorruptError(file, 'expected an object {version, values}');
  const { version, values } = raw as { version?: unknown; values?: unknown };
  if (version !== KV_VERSION)
    throw new StoreCorruptError(
      file,
      `unknown version ${JSON.stringify(version)} (this build reads version ${KV_VERSION})`,
    );
  if (values === null || typeof values !== 'object' || Array.isArray(values))
    throw new StoreCorruptError(file, '"values" is not an object');
  return { version, values: values as Record<string, unknown> };
}
