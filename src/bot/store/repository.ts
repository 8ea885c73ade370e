// Durable records on files: a small live file of records still moving and an append-only history.
// Finishing appends to history first (the commit point), then rewrites live; on open the history copy
// wins. Layout and crash argument: docs/store.md "Two files per repository".
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Low } from 'lowdb';
import type { z } from 'zod';
import type { Mutation, Outbox, OutboxEntry, Repository } from '../ports/store.js';
import type { OutboxEvent } from '../ports/events.js';
import { newOutboxEntries } from './outbox-entries.js';
import { DurableJsonFile } from './durable-adapter.js';
import { DIR_MODE, fsyncDirectory } from './durable-io.js';
import { StoreClosedError, StoreCorruptError, StoreFailedError } from './errors.js';
import { HistoryFile } from './history-file.js';
import { acquireLock, type FileLock } from './lock.js';
import { GroupCommit } from './group-commit.js';
import { updatedAtOf } from './scope.js';

/** A mutation waiting for its group commit: of one record (with its outbox events), or of the outbox alone. */
interface PendingMutation<R> {
  id: string;
  fn: (current: R | undefined, others: readonly R[]) => Mutation<R, unknown>;
  /** Set for mutateInScope: `fn` is given the records in scope as the mutations before it left them. */
  scope?: { since: number };
  /** Set for an outbox change: the outbox as it will be written. */
  outboxOp?: (outbox: OutboxEntry[], lastSeq: number) => { outbox: OutboxEntry[]; lastSeq: number };
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}
import { check, type Checked } from './schema-check.js';

export interface RepositoryOptions<R extends { id: string }> {
  /** Data folder; created if missing. */
  dir: string;
  /** File stem: `requests` gives requests.json, requests.history.jsonl, requests.lock. */
  name: string;
  /** Its result is what is stored. Prefer strictObject: a plain object silently strips an unknown field instead of refusing it. */
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
  /** What must reach Slack, written with the records' changes. Absent in files written before. */
  outbox?: OutboxEntry[];
  /** The last outbox seq handed out (never reused). */
  outboxSeq?: number;
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
 * Takes the lock (StoreLockedError if held), validates both files (StoreCorruptError, untouched) and
 * finishes a move to history a crash interrupted.
 * @example openRepository({ dir: 'data', name: 'requests', schema: RequestSchema, isFinished: (r) => FINAL_STATES.has(r.state), version: 1 })
 */
export async function openRepository<R extends { id: string }>(
  options: RepositoryOptions<R>,
): Promise<DurableRepository<R>> {
  mkdirSync(options.dir, { recursive: true, mode: DIR_MODE });
  const files = repositoryFiles(options.dir, options.name);
  const lock = await acquireLock(files.lock, options.warn ? { warn: options.warn } : {});
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
  #outbox: OutboxEntry[];
  #outboxSeq: number;
  #failure: StoreFailedError | undefined;
  #closed = false;

  private constructor(
    options: RepositoryOptions<R>,
    files: RepositoryFiles,
    lock: FileLock,
    db: Low<LiveFile<R>>,
    history: HistoryFile<R>,
    live: Map<string, R>,
    outbox: { entries: OutboxEntry[]; seq: number },
  ) {
    this.#outbox = outbox.entries;
    this.#outboxSeq = outbox.seq;
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
    const raw = await adapter.read();
    const live = validateLive(files.live, raw, options.version, parse);
    const outbox = validateOutbox(files.live, raw);
    const history = await HistoryFile.open(files.history, parse, warn);
    const db = new Low<LiveFile<R>>(adapter, { version: options.version, records: [] });
    const repo = new FileRepository(options, files, lock, db, history, live, outbox);
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
   * `fn` sees a copy (live, else history); resolves once on disk. Refused: a schema failure, another id,
   * reopening a finished record. StoreFailedError: disk outcome unknown, writes refused until reopened.
   */
  async mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T> {
    // Checked on arrival: close() lets the mutations queued before it finish.
    this.#assertOpen();
    return new Promise<T>((resolve, reject) =>
      this.#commits.add({ id, fn, resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  /** One process holds the files (their lock), and its group commit applies mutations one by one: the view is exact. */
  async mutateInScope<T>(
    scope: { since: number },
    id: string,
    fn: (current: R | undefined, others: readonly R[]) => Mutation<R, T>,
  ): Promise<T> {
    this.#assertOpen();
    return new Promise<T>((resolve, reject) =>
      this.#commits.add({ id, fn, scope, resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  /** The outbox lives in the live file: every change to it goes through the same queue and write. */
  readonly outbox: Outbox = {
    pending: async () => {
      this.#assertOpen();
      return structuredClone(this.#outbox);
    },
    append: (events: OutboxEvent[]) =>
      this.#outboxChange((outbox, lastSeq) => ({
        outbox: [...outbox, ...newOutboxEntries(lastSeq, events)],
        lastSeq: lastSeq + events.length,
      })),
    update: (seq, changes) =>
      this.#outboxChange((outbox, lastSeq) => ({
        outbox: outbox.map((e) => (e.seq === seq ? { ...e, ...structuredClone(changes) } : e)),
        lastSeq,
      })),
    remove: (seq) =>
      this.#outboxChange((outbox, lastSeq) => ({ outbox: outbox.filter((e) => e.seq !== seq), lastSeq })),
  };

  #outboxChange(op: NonNullable<PendingMutation<R>['outboxOp']>): Promise<void> {
    this.#assertOpen();
    return new Promise<void>((resolve, reject) =>
      this.#commits.add({ id: '', fn: () => ({ result: undefined }), outboxOp: op, resolve: () => resolve(), reject }),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#commits.drain();
    this.#history.close();
    this.#lock.release();
  }

  /**
   * Each mutation sees what the ones before it left; the live file is written once, then callers hear back.
   * A finished record goes to history after that write, then leaves live (a crash between: open finishes
   * the move). A write failure refuses the whole group: none was confirmed.
   */
  async #commit(items: PendingMutation<R>[]): Promise<void> {
    const working = new Map(this.#live);
    let outbox = { outbox: this.#outbox, lastSeq: this.#outboxSeq };
    const finished: R[] = [];
    const settled: Array<{ item: PendingMutation<R>; result: unknown }> = [];
    let liveChanged = false;
    for (const item of items) {
      if (this.#failure) {
        item.reject(this.#failure);
        continue;
      }
      try {
        if (item.outboxOp) {
          outbox = item.outboxOp(outbox.outbox, outbox.lastSeq);
          liveChanged = true;
          settled.push({ item, result: undefined });
          continue;
        }
        const others = item.scope ? this.#inScope(working, item.id, item.scope.since) : [];
        const applied = this.#apply(working, item.id, (current) => item.fn(current, others));
        if (applied.events.length > 0)
          outbox = {
            outbox: [...outbox.outbox, ...newOutboxEntries(outbox.lastSeq, applied.events)],
            lastSeq: outbox.lastSeq + applied.events.length,
          };
        if (applied.liveChanged || applied.events.length > 0) liveChanged = true;
        if (applied.finished) finished.push(applied.finished);
        settled.push({ item, result: applied.result });
      } catch (err) {
        item.reject(err);
      }
    }
    try {
      if (this.#failure) throw this.#failure;
      if (liveChanged) await this.#writeLive(working, outbox.outbox, outbox.lastSeq, items.length > 1);
    } catch (err) {
      for (const { item } of settled) item.reject(err);
      return;
    }
    this.#live = working;
    this.#outbox = outbox.outbox;
    this.#outboxSeq = outbox.lastSeq;
    if (finished.length > 0) {
      try {
        await this.#moveToHistory(finished);
      } catch (err) {
        for (const { item } of settled) item.reject(err);
        return;
      }
    }
    for (const { item, result } of settled) item.resolve(result);
  }

  /** Finished records: appended to history (the commit point of a finish), then dropped from live. */
  async #moveToHistory(records: R[]): Promise<void> {
    for (const record of records) this.#guard(this.files.history, () => this.#history.append(record));
    const live = new Map(this.#live);
    for (const record of records) live.delete(record.id);
    await this.#writeLive(live, this.#outbox, this.#outboxSeq);
    this.#live = live;
  }

  /** Applies one mutation to `working`; refusals throw and leave `working` untouched. */
  #apply<T>(
    working: Map<string, R>,
    id: string,
    fn: (current: R | undefined) => Mutation<R, T>,
  ): { result: T; liveChanged: boolean; finished?: R; events: OutboxEvent[] } {
    const fromLive = working.get(id);
    const current = fromLive !== undefined ? structuredClone(fromLive) : this.#history.get(id);
    const { next, result, outbox } = fn(current);
    const events = structuredClone(outbox ?? []);
    if (next === undefined) return { result, liveChanged: false, events };

    const checked = check(this.#options.schema, next);
    if (!checked.ok)
      throw new Error(`refusing to store record ${id}: it does not match the schema: ${checked.problem}`);
    // A copy: parts the schema passes through (z.unknown) would otherwise stay shared with the caller.
    const record = structuredClone(checked.value);
    if (record.id !== id) throw new Error(`refusing to store record ${id}: the new record has id ${record.id}`);
    const finished = this.#options.isFinished(record);
    if (fromLive === undefined && current !== undefined && !finished) {
      throw new Error(`refusing to reopen record ${id}: it is finished and in history`);
    }
    if (finished && fromLive === undefined) {
      // Already in history (changed again after it finished): its new form is appended there.
      this.#guard(this.files.history, () => this.#history.append(record));
      return { result, liveChanged: false, events };
    }
    working.set(id, record);
    return { result, liveChanged: true, events, ...(finished ? { finished: record } : {}) };
  }

  /** Live records as this group has left them so far, and finished ones since `since` (history, then this group's). */
  #inScope(working: Map<string, R>, id: string, since: number): R[] {
    const live = [...working.values()];
    const liveIds = new Set(working.keys());
    const finished = this.#history.since(since, updatedAtOf).filter((r) => !liveIds.has(r.id));
    return [...live, ...finished].filter((r) => r.id !== id).map((r) => structuredClone(r));
  }

  get liveWrites(): number {
    return this.#liveWrites;
  }

  async #writeLive(live: Map<string, R>, outbox: OutboxEntry[], outboxSeq: number, burst = false): Promise<void> {
    this.#liveWrites++;
    this.#adapter.offThread = burst;
    this.#db.data = { version: this.#options.version, records: [...live.values()], outbox, outboxSeq };
    try {
      this.#lock.assertHeld();
      await this.#db.write();
    } catch (err) {
      throw this.#fail(this.files.live, err);
    }
  }

  #guard(file: string, write: () => void): void {
    try {
      this.#lock.assertHeld();
      write();
    } catch (err) {
      throw this.#fail(file, err);
    }
  }

  #fail(file: string, err: unknown): StoreFailedError {
    this.#failure = new StoreFailedError(file, err);
    return this.#failure;
  }

  /** Live records already in history are dropped; finished ones not in history are moved, history first as in a normal finish. */
  async #finishInterruptedMoves(warn: (message: string) => void): Promise<void> {
    const stale: string[] = [];
    const moved: string[] = [];
    for (const [id, record] of this.#live) {
      if (this.#history.has(id)) stale.push(id);
      else if (this.#options.isFinished(record)) {
        this.#guard(this.files.history, () => this.#history.append(record));
        moved.push(id);
      }
    }
    if (stale.length === 0 && moved.length === 0) return;
    const live = new Map(this.#live);
    for (const id of [...stale, ...moved]) live.delete(id);
    await this.#writeLive(live, this.#outbox, this.#outboxSeq);
    this.#live = live;
    if (stale.length)
      warn(
        `${this.files.live}: dropped ${stale.length} record(s) already finished in history (a move a crash interrupted): ${stale.join(', ')}`,
      );
    if (moved.length)
      warn(`${this.files.live}: moved ${moved.length} finished record(s) to history: ${moved.join(', ')}`);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError(this.files.live);
  }
}

/** History first, then live, so a missing file after a first start can only mean it was lost, and is refused. */
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
    throw new StoreCorruptError(
      files.history,
      `the history file is missing while ${files.live} exists; restore it from a backup`,
    );
  }
  if (!historyExists) {
    closeSync(openSync(files.history, 'wx', 0o600));
    fsyncDirectory(dirname(files.history));
  }
  if (!liveExists) await new DurableJsonFile<LiveFile<never>>(files.live).write({ version, records: [] });
}

/** The outbox of the live file: absent (written before it existed) is empty. */
function validateOutbox(file: string, raw: unknown): { entries: OutboxEntry[]; seq: number } {
  const { outbox, outboxSeq } = raw as { outbox?: unknown; outboxSeq?: unknown };
  if (outbox === undefined) return { entries: [], seq: 0 };
  if (!Array.isArray(outbox)) throw new StoreCorruptError(file, '"outbox" is not an array');
  for (const [i, e] of outbox.entries()) {
    const entry = e as Partial<OutboxEntry> | null;
    if (
      !entry ||
      typeof entry.seq !== 'number' ||
      typeof entry.requestId !== 'string' ||
      typeof entry.event !== 'object' ||
      !Array.isArray(entry.done)
    ) {
      throw new StoreCorruptError(file, `outbox entry ${i} is not an outbox entry`);
    }
  }
  const entries = outbox as OutboxEntry[];
  const seq = typeof outboxSeq === 'number' ? outboxSeq : entries.reduce((max, e) => Math.max(max, e.seq), 0);
  return { entries, seq };
}

/** The live file's records, each checked; StoreCorruptError naming the file otherwise. */
export function validateLive<R extends { id: string }>(
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
