// The file audit log: append-only, hash-chained JSON lines, each append resolved after fdatasync.
// Appends arriving during a write share the next one (group commit); chain order is call order.
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditEntryInput, AuditLog } from '../ports/store.js';
import type { Clock } from '../ports/clock.js';
import { auditBody, chainEntry, GENESIS_HASH, headOf, type ChainHead } from './audit-entry.js';
import { appendDurablyAsync, DIR_MODE, FILE_MODE, fsyncDirectory } from './durable-io.js';
import { GroupCommit } from './group-commit.js';
import { StoreClosedError, StoreFailedError } from './errors.js';
import { dropIncompleteTail, readLastLine } from './json-lines.js';
import { acquireLock } from './lock.js';
import { makeRedactor, type SecretLike } from './redact.js';

export { verifyAuditLog, type AuditVerifyResult } from './audit-verify.js';
export { exportAuditCsv, type AuditExportRange } from './audit-export.js';

export const AUDIT_FILE_NAME = 'audit.jsonl';

export interface AuditLogOptions {
  /** e.g. `${dataDir}/${AUDIT_FILE_NAME}`; created with its folder when absent. */
  file: string;
  /** Stamps `ts`. */
  clock: Pick<Clock, 'now'>;
  /** Secrets replaced by [redacted] wherever they appear (see redact.ts). */
  redact?: readonly SecretLike[];
  /** Recoveries worth telling an operator (an interrupted append cut off). */
  warn?: (message: string) => void;
}

export interface DurableAuditLog extends AuditLog {
  readonly file: string;
  /** seq and hash of the last line written (0 and GENESIS_HASH when empty). */
  readonly head: ChainHead;
  /** Waits for pending appends, then releases the lock. */
  close(): Promise<void>;
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Continues the chain from its last line, checked on its own (StoreCorruptError, file untouched); the whole chain is verify's. */
export async function openAuditLog(options: AuditLogOptions): Promise<DurableAuditLog> {
  const { file, clock } = options;
  const warn = options.warn ?? (() => {});
  const redact = makeRedactor(options.redact);
  mkdirSync(dirname(file), { recursive: true, mode: DIR_MODE });
  const lock = await acquireLock(`${file}.lock`, { warn });
  let fd: number;
  let head: ChainHead;
  try {
    if (!existsSync(file)) {
      closeSync(openSync(file, 'wx', FILE_MODE));
      fsyncDirectory(dirname(file));
    }
    head = readHead(file, warn);
    fd = openSync(file, 'a', FILE_MODE);
  } catch (err) {
    lock.release();
    throw err;
  }

  let failure: StoreFailedError | undefined;
  let closed = false;

  // Lines appended while earlier ones are being written go out together in the next write: one
  // fdatasync per group, in chain order, off the event loop (group-commit.ts).
  const commits = new GroupCommit<Pending>(async (batch) => {
    try {
      if (failure) throw failure;
      lock.assertHeld();
      await appendDurablyAsync(fd, Buffer.from(batch.map((p) => p.line).join(''), 'utf8'));
    } catch (err) {
      // Lines after this one were already chained onto it: nothing more may be appended.
      failure ??= new StoreFailedError(file, err);
      for (const p of batch) p.reject(failure);
      return;
    }
    for (const p of batch) p.resolve();
  });

  const log: DurableAuditLog = {
    file,
    get head() {
      return { ...head };
    },
    append(input: AuditEntryInput): Promise<void> {
      try {
        if (closed) throw new StoreClosedError(file);
        if (failure) throw failure;
        const { entry, line } = chainEntry(auditBody(input, redact), new Date(clock.now()).toISOString(), head);
        head = { seq: entry.seq, hash: entry.hash };
        return new Promise<void>((resolve, reject) => commits.add({ line: line + '\n', resolve, reject }));
      } catch (err) {
        return Promise.reject(err);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await commits.drain();
      closeSync(fd);
      lock.release();
    },
  };
  // A run that died holding the log leaves its trace in the log itself, not only in a warning.
  const stale = lock.takenOver;
  if (stale) {
    try {
      await log.append({
        type: 'store.lock_taken_over',
        actor: 'system',
        data: { lock: lock.path, pid: stale.pid, host: stale.host, since: stale.since, reason: stale.reason },
      });
    } catch (err) {
      await log.close();
      throw err;
    }
  }
  return log;
}

function readHead(file: string, warn: (message: string) => void): ChainHead {
  const tail = readLastLine(file);
  const head = tail.last === undefined ? { seq: 0, hash: GENESIS_HASH } : headOf(file, tail.last.text);
  // Only after the last complete line proved sound: a corrupt file is left exactly as found.
  const dropped = dropIncompleteTail(file, tail.completeEnd, tail.size);
  if (dropped > 0) {
    warn(
      `${file}: dropped an incomplete last line of ${dropped} bytes (an append interrupted by a crash, ` +
        `never acknowledged); a copy is in ${file}.torn-${tail.completeEnd}`,
    );
  }
  return head;
}
