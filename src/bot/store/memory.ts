// In-memory store ports for engine tests: same queue semantics and refusals as the files, values copied
// through JSON so a test cannot pass by keeping a reference the real store would not keep.
import type { AuditEntryInput, AuditLog, KeyValueStore, Mutation, OutboxEntry, Repository } from '../ports/store.js';
import type { Clock } from '../ports/clock.js';
import type { OutboxEvent } from '../ports/events.js';
import { newOutboxEntries } from './outbox-entries.js';
import { toPlainJson } from './audit-entry.js';
import { SerialQueue } from './queue.js';
import { updatedAtOf } from './scope.js';
import { canonicalJson } from '../domain/canonical.js';

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export interface MemoryRepository<R extends { id: string }> extends Repository<R> {
  /** What the files would hold: live records in order, history lines oldest first, the outbox. */
  dump(): { live: R[]; history: R[]; outbox: OutboxEntry[] };
}

/** `mutate` yields first so concurrent callers really queue; refuses another id and reopening; moves finished records to history. */
export function memoryRepository<R extends { id: string }>(isFinished: (record: R) => boolean): MemoryRepository<R> {
  const live = new Map<string, R>();
  const history: R[] = [];
  const finished = new Map<string, R>();
  const queue = new SerialQueue();
  let outbox: OutboxEntry[] = [];
  let lastSeq = 0;
  const enqueue = (events: OutboxEvent[] | undefined) => {
    const added = newOutboxEntries(lastSeq, viaJson(events ?? []));
    lastSeq += added.length;
    outbox = [...outbox, ...added];
  };
  return {
    outbox: {
      pending: () => queue.run(async () => outbox.map(viaJson)),
      append: (events) => queue.run(async () => enqueue(events)),
      update: (seq, changes) =>
        queue.run(async () => void (outbox = outbox.map((e) => (e.seq === seq ? { ...e, ...viaJson(changes) } : e)))),
      remove: (seq) => queue.run(async () => void (outbox = outbox.filter((e) => e.seq !== seq))),
    },
    async get(id) {
      const record = live.get(id) ?? finished.get(id);
      return record === undefined ? undefined : viaJson(record);
    },
    async listLive() {
      return [...live.values()].map(viaJson);
    },
    async recentHistory(limit) {
      const out: R[] = [];
      for (let i = history.length - 1; i >= 0 && out.length < limit; i--) {
        if (finished.get(history[i]!.id) === history[i]) out.push(viaJson(history[i]!));
      }
      return out;
    },
    mutateInScope<T>(
      scope: { since: number },
      id: string,
      fn: (current: R | undefined, others: readonly R[]) => Mutation<R, T>,
    ): Promise<T> {
      // One queue for every mutate: the view and the write cannot interleave with another.
      return this.mutate(id, (current) => {
        const others = [...live.values(), ...[...finished.values()].filter((r) => updatedAtOf(r) >= scope.since)]
          .filter((r) => r.id !== id)
          .map(viaJson);
        return fn(current, others);
      });
    },
    mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T> {
      return queue.run(async () => {
        await Promise.resolve();
        const fromLive = live.get(id);
        const current = fromLive ?? finished.get(id);
        const { next, result, outbox: events } = fn(current === undefined ? undefined : viaJson(current));
        if (next === undefined) {
          enqueue(events);
          return result;
        }
        const record = viaJson(next);
        if (record.id !== id) throw new Error(`refusing to store record ${id}: the new record has id ${record.id}`);
        const done = isFinished(record);
        if (fromLive === undefined && current !== undefined && !done) {
          throw new Error(`refusing to reopen record ${id}: it is finished and in history`);
        }
        if (done) {
          history.push(record);
          finished.set(id, record);
          live.delete(id);
        } else {
          live.set(id, record);
        }
        enqueue(events);
        return result;
      });
    },
    dump() {
      return { live: [...live.values()].map(viaJson), history: history.map(viaJson), outbox: outbox.map(viaJson) };
    },
  };
}

export interface MemoryKeyValueStore extends KeyValueStore {
  dump(): Record<string, unknown>;
}

/** KeyValueStore port in memory; `set(key, undefined)` deletes, as in kv.ts. */
export function memoryKv(): MemoryKeyValueStore {
  const values = new Map<string, unknown>();
  const queue = new SerialQueue();
  return {
    async get<T>(key: string) {
      const value = values.get(key);
      return value === undefined ? undefined : (viaJson(value) as T);
    },
    set<T>(key: string, value: T) {
      return queue.run(async () => {
        await Promise.resolve();
        if (value === undefined) values.delete(key);
        else values.set(key, viaJson(value));
      });
    },
    setIfAbsent<T>(key: string, value: T) {
      return queue.run(async () => {
        await Promise.resolve();
        if (values.has(key)) return false;
        values.set(key, viaJson(value));
        return true;
      });
    },
    deleteIf<T>(key: string, expected: T) {
      return queue.run(async () => {
        await Promise.resolve();
        const held = values.has(key) && canonicalJson(values.get(key)) === canonicalJson(viaJson(expected));
        if (held) values.delete(key);
        return held;
      });
    },
    dump() {
      return Object.fromEntries([...values].map(([k, v]) => [k, viaJson(v)]));
    },
  };
}

/** A recorded audit entry: the input as the file would keep it, numbered, stamped when a clock is given. */
export type MemoryAuditEntry = AuditEntryInput & { seq: number; ts?: string };

export interface MemoryAuditLog extends AuditLog {
  readonly entries: MemoryAuditEntry[];
}

/** AuditLog port recording entries in an array, in call order. */
export function memoryAuditLog(options: { clock?: Pick<Clock, 'now'> } = {}): MemoryAuditLog {
  const entries: MemoryAuditEntry[] = [];
  return {
    entries,
    async append(input) {
      const plain = toPlainJson(input) as AuditEntryInput;
      const ts = options.clock ? { ts: new Date(options.clock.now()).toISOString() } : {};
      entries.push({ seq: entries.length + 1, ...ts, ...plain });
    },
  };
}
