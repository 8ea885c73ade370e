/**
 * Durable records for the approval engine (the Repository port).
 *
 * Two files per repository, plus a lock:
 *   <name>.json            live: open and in-flight records only, rewritten (lowdb, durable adapter)
 *   <name>.history.jsonl   finished records, append-only, one JSON line each, fdatasync'd
 *   <name>.lock            O_EXCL lock file with the owner's pid (see lock.ts)
 * Because the live file only holds what is still moving, a transition rewrites a few kilobytes
 * whether 100 or 100,000 requests finished before it.
 *
 * Finishing a record: append it to history (fdatasync) FIRST, then rewrite live without it. The
 * history append is the commit point. A crash between the two leaves the record in both files;
 * on open, the history copy wins and the stale live copy is dropped (it can only be older: a
 * finished record is never reopened, see `mutate`).
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Low } from 'lowdb';
import type { z } from 'zod';
import type { Mutation, Repository } from '../app/ports.js';
import { DurableJsonFile } from './durable-adapter.js';
import { DIR_MODE, fsyncDirectory } from './durable-io.js';
import { StoreClosedError, StoreCorruptError, StoreFailedError } from './errors.js';
import { HistoryFile } from './history-file.js';
import { acquireLock, type FileLock } from './lock.js';
import { GroupCommit } from './group-commit.js';

/** A mutation waiting for its group commit. */
interface PendingMutation<R> {
  id: string;
  fn: (current: R | undefined) => Mutation<R, unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}
import { check, type Checked } from './schema-check.js';

export interface RepositoryOptions<R extends { id: string }> {
  /** Data folder; created if missing. */
  dir: string;
  /** File stem: `requests` gives requests.json, requests.history.jsonl, requests.lock. */
  name: string;
  /**
   * Schema of one record, checked on load and before every write; what it returns is what is
   * stored. Prefer strict objects (z.strictObject): a plain z.object silently strips a field the
   * schema does not know, so it would vanish from disk instead of being refused.
   */
  schema: z.ZodType<R>;
  /** True for records that are done: they move to history and stay there. */
  isFinished: (record: R) => boolean;
  /** Format version written into the live file; any other version found on load is refused. */
  version: number;
  /** Recoveries worth telling an operator (torn history line dropped, interrupted move finished). */
  warn?: (message: string) => void;
}

/** The Repository port plus the lifecycle main.ts needs. */
export interface DurableRepository<R extends { id: string }> extends Repository<R> {
  readonly files: RepositoryFiles;
  /** How many times the live file was written since open (group commits make it fewer than mutations). */
  readonly liveWrites: number;
  /** Waits for queued writes, then releases the lock. Call on shutdown (SIGTERM/SIGINT). */
  close(): Promise<void>;
}

export interface RepositoryFiles {
  live: string;
  history: string;
  lock: string;
}

interface LiveFile<R> {
  version: number;
  records: R[];
}

/** Where the repository called `name` keeps its files inside `dir`. */
export function repositoryFiles(dir: string, name: string): RepositoryFiles {
  return {
    live: join(dir, `${name}.json`),
    history: join(dir, `${name}.history.jsonl`),
    lock: join(dir, `${name}.lock`),
  };
}

/**
 * Opens the repository `name` in `dir`: takes the lock, validates both files (StoreCorruptError,
 * files untouched, on any problem), finishes a move to history a crash interrupted, and returns
 * the store. Throws StoreLockedError when another instance holds it.
 *
 * @example
 * const requests = await openRepository({ dir: 'data', name: 'requests', schema: RequestSchema,
 *   isFinished: (r) => FINAL_STATES.has(r.state), version: 1 });
 */
export async function openRepository<R extends { id: string }>(options: RepositoryOptions<R>): Promise<DurableRepository<R>> {
  mkdirSync(options.dir, { recursive: true, mode: DIR_MODE });
  const files = repositoryFiles(options.dir, options.name);
  const lock = acquireLock(files.lock, options.warn ? { warn: options.warn } : {});
  try {
    return await FileRepository.load(options, files, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

class FileRepository<R extends { id: string }> implements DurableRepository<R> {
  readonly files: RepositoryFiles;
  readonly #options: RepositoryOptions<R>;
  readonly #db: Low<LiveFile<R>>;
  readonly #adapter: DurableJsonFile<LiveFile<R>>;
  readonly #history: HistoryFile<R>;
  readonly #lock: FileLock;
  readonly #commits = new GroupCommit<PendingMutation<R>>((items) => this.#commit(items));
  #liveWrites = 0;
  /** Insertion-ordered copy of the live file's records, keyed by id. */
  #live: Map<string, R>;
  #failure: StoreFailedError | undefined;
  #closed = false;

  private constructor(
    options: RepositoryOptions<R>,
    files: RepositoryFiles,
    lock: FileLock,
    db: Low<LiveFile<R>>,
    history: HistoryFile<R>,
    live: Map<string, R>,
  ) {
    this.#options = options;
    this.files = files;
    this.#lock = lock;
    this.#db = db;
    this.#adapter = db.adapter as DurableJsonFile<LiveFile<R>>;
    this.#history = history;
    this.#live = live;
  }

  static async load<R extends { id: string }>(
    options: RepositoryOptions<R>,
    files: RepositoryFiles,
    lock: FileLock,
  ): Promise<FileRepository<R>> {
    const warn = options.warn ?? (() => {});
    const parse = (value: unknown) => check(options.schema, value);
    await ensureFiles(files, options.version);

    const adapter = new DurableJsonFile<LiveFile<R>>(files.live);
    const live = validateLive(files.live, await adapter.read(), options.version, parse);
    const history = await HistoryFile.open(files.history, parse, warn);
    const db = new Low<LiveFile<R>>(adapter, { version: options.version, records: [] });
    const repo = new FileRepository(options, files, lock, db, history, live);
    try {
      await repo.#finishInterruptedMoves(warn);
    } catch (err) {
      history.close();
      throw err;
    }
    return repo;
  }

  async get(id: string): Promise<R | undefined> {
    this.#assertOpen();
    const record = this.#live.get(id);
    return record !== undefined ? structuredClone(record) : this.#history.get(id);
  }

  async listLive(): Promise<R[]> {
    this.#assertOpen();
    return [...this.#live.values()].map((r) => structuredClone(r));
  }

  async recentHistory(limit: number): Promise<R[]> {
    this.#assertOpen();
    return this.#history.recent(Math.max(0, Math.floor(limit)));
  }

  /**
   * Read-modify-write of one record through the repository's single queue. `fn` sees a copy of
   * the current record (live, else history) and returns the next one; the promise resolves after
   * it is on disk. Refused (rejected, nothing written): a next record failing the schema or with
   * another id, and reopening a finished record. A StoreFailedError means the disk outcome is
   * unknown: the store refuses further writes until reopened.
   */
  async mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T> {
    // Checked on arrival: close() lets the mutations queued before it finish.
    this.#assertOpen();
    return new Promise<T>((resolve, reject) => this.#commits.add({ id, fn, resolve: resolve as (value: unknown) => void, reject }));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#commits.drain();
    this.#history.close();
    this.#lock.release();
  }

  /**
   * One group commit: each mutation, in arrival order, sees the state the ones before it left
   * (read-modify-write stays serial); finished records go to history at once (the commit point of
   * a finish, as before); then the live file is written once, and only then does any caller hear
   * back. A write failure refuses every mutation of the group: none was confirmed.
   */
  async #commit(items: PendingMutation<R>[]): Promise<void> {
    const working = new Map(this.#live);
    const movedToHistory: string[] = [];
    const settled: Array<{ item: PendingMutation<R>; result: unknown }> = [];
    let liveChanged = false;
    for (const item of items) {
      if (this.#failure) {
        item.reject(this.#failure);
        continue;
      }
      try {
        const applied = this.#apply(working, item.id, item.fn);
        if (applied.liveChanged) liveChanged = true;
        if (applied.movedToHistory) movedToHistory.push(item.id);
        settled.push({ item, result: applied.result });
      } catch (err) {
        item.reject(err);
      }
    }
    try {
      if (this.#failure) throw this.#failure;
      if (liveChanged) await this.#writeLive(working, items.length > 1);
    } catch (err) {
      // Records committed to history stay out of live memory: history is the truth for them.
      for (const id of movedToHistory) this.#live.delete(id);
      for (const { item } of settled) item.reject(err);
      return;
    }
    this.#live = working;
    for (const { item, result } of settled) item.resolve(result);
  }

  /** Applies one mutation to `working`; refusals throw and leave `working` untouched. */
  #apply<T>(working: Map<string, R>, id: string, fn: (current: R | undefined) => Mutation<R, T>): { result: T; liveChanged: boolean; movedToHistory: boolean } {
    const fromLive = working.get(id);
    const current = fromLive !== undefined ? structuredClone(fromLive) : this.#history.get(id);
    const { next, result } = fn(current);
    if (next === undefined) return { result, liveChanged: false, movedToHistory: false };

    const checked = check(this.#options.schema, next);
    if (!checked.ok) throw new Error(`refusing to store record ${id}: it does not match the schema: ${checked.problem}`);
    // A copy: parts the schema passes through (z.unknown) would otherwise stay shared with the caller.
    const record = structuredClone(checked.value);
    if (record.id !== id) throw new Error(`refusing to store record ${id}: the new record has id ${record.id}`);
    const finished = this.#options.isFinished(record);
    if (fromLive === undefined && current !== undefined && !finished) {
      throw new Error(`refusing to reopen record ${id}: it is finished and in history`);
    }

    if (finished) {
      this.#guard(this.files.history, () => this.#history.append(record));
      if (fromLive === undefined) return { result, liveChanged: false, movedToHistory: true };
      working.delete(id);
      return { result, liveChanged: true, movedToHistory: true };
    }
    working.set(id, record);
    return { result, liveChanged: true, movedToHistory: false };
  }

  get liveWrites(): number {
    return this.#liveWrites;
  }

  async #writeLive(live: Map<string, R>, burst = false): Promise<void> {
    this.#liveWrites++;
    this.#adapter.offThread = burst;
    this.#db.data = { version: this.#options.version, records: [...live.values()] };
    try {
      await this.#db.write();
    } catch (err) {
      throw this.#fail(this.files.live, err);
    }
  }

  #guard(file: string, write: () => void): void {
    try {
      write();
    } catch (err) {
      throw this.#fail(file, err);
    }
  }

  #fail(file: string, err: unknown): StoreFailedError {
    this.#failure = new StoreFailedError(file, err);
    return this.#failure;
  }

  /**
   * Live records that are already in history (crash between the two writes of a finish) are
   * dropped; live records that are finished but not in history (e.g. a state that became final
   * in a newer build) are moved. Same order as a normal finish: history first, then live.
   */
  async #finishInterruptedMoves(warn: (message: string) => void): Promise<void> {
    const stale: string[] = [];
    const moved: string[] = [];
    for (const [id, record] of this.#live) {
      if (this.#history.has(id)) stale.push(id);
      else if (this.#options.isFinished(record)) {
        this.#history.append(record);
        moved.push(id);
      }
    }
    if (stale.length === 0 && moved.length === 0) return;
    const live = new Map(this.#live);
    for (const id of [...stale, ...moved]) live.delete(id);
    await this.#writeLive(live);
    this.#live = live;
    if (stale.length) warn(`${this.files.live}: dropped ${stale.length} record(s) already finished in history (a move a crash interrupted): ${stale.join(', ')}`);
    if (moved.length) warn(`${this.files.live}: moved ${moved.length} finished record(s) to history: ${moved.join(', ')}`);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError(this.files.live);
  }
}

/**
 * Creates missing files in an order that lets a deleted file be told apart from a first start:
 * history first (empty), then live. So "live missing while history has content" and "history
 * missing while live exists" can only mean a file was lost, and are refused.
 */
async function ensureFiles(files: RepositoryFiles, version: number): Promise<void> {
  const liveExists = existsSync(files.live);
  const historyExists = existsSync(files.history);
  if (!liveExists && historyExists && statSync(files.history).size > 0) {
    throw new StoreCorruptError(
      files.live,
      `the live file is missing while ${files.history} holds finished records; restore it from a backup ` +
        `(if no request was open, a file containing {"version": ${version}, "records": []} is valid)`,
    );
  }
  if (liveExists && !historyExists) {
    throw new StoreCorruptError(files.history, `the history file is missing while ${files.live} exists; restore it from a backup`);
  }
  if (!historyExists) {
    closeSync(openSync(files.history, 'wx', 0o600));
    fsyncDirectory(dirname(files.history));
  }
  if (!liveExists) await new DurableJsonFile<LiveFile<never>>(files.live).write({ version, records: [] });
}

function validateLive<R extends { id: string }>(
  file: string,
  raw: unknown,
  version: number,
  parse: (value: unknown) => Checked<R>,
): Map<string, R> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new StoreCorruptError(file, 'expected an object {version, records}');
  }
  const { version: found, records } = raw as { version?: unknown; records?: unknown };
  if (found !== version) {
    throw new StoreCorruptError(file, `unknown version ${JSON.stringify(found)} (this build reads version ${version})`);
  }
  if (!Array.isArray(records)) throw new StoreCorruptError(file, '"records" is not an array');
  const live = new Map<string, R>();
  records.forEach((value, index) => {
    const checked = parse(value);
    if (!checked.ok) throw new StoreCorruptError(file, `record ${index} does not match the schema: ${checked.problem}`);
    if (live.has(checked.value.id)) throw new StoreCorruptError(file, `record id ${checked.value.id} appears twice`);
    live.set(checked.value.id, checked.value);
  });
  return live;
}
