/**
 * One store instance per file. Inside the process a registry refuses a second open of the same
 * path; across processes, hosts and pid namespaces a lease does: proper-lockfile creates the lock
 * as a directory (mkdir is atomic, also on network file systems) and its holder renews the
 * directory's mtime every LOCK_UPDATE_MS. A lock not renewed for LOCK_STALE_MS is the lock of a
 * holder that is gone (SIGKILL, OOM, power cut, a frozen container), and the next start takes it
 * over, saying so. Nothing here asks whether a pid runs: two containers sharing a volume see
 * different processes under the same pid, and only a lease that ends with its holder tells them
 * apart.
 *
 * Who holds the lease is written beside it (`<lock>-owner.json`: pid, host, since), for the
 * message that refuses a second bot. A holder that cannot renew its lease (the disk went away, or
 * the process was frozen longer than the stale time and someone took over) must not write again:
 * `onCompromised` is told, and by default the process stops at once.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { FILE_MODE } from './durable-io.js';
import { StoreLockedError } from './errors.js';

/**
 * A lease not renewed for this long is a dead holder's. Long enough that a live bot blocked by a
 * slow fsync or a busy event loop never loses it; short enough that a restart after a crash waits
 * at most half a minute.
 */
export const LOCK_STALE_MS = 30_000;
/** How often a holder renews its lease: several renewals fit in one stale period. */
export const LOCK_UPDATE_MS = 5_000;

const timing = { staleMs: LOCK_STALE_MS, updateMs: LOCK_UPDATE_MS };

/** Shorter leases for tests that kill a holder and wait for the takeover. */
export function setLockTiming(t: { staleMs: number; updateMs: number }): void {
  timing.staleMs = t.staleMs;
  timing.updateMs = t.updateMs;
}

const held = new Set<string>();

/** Who held a lock that was taken over, as its owner file said. */
export interface StaleOwner {
  pid: number;
  host: string;
  since: string;
}

/** A held lock; `release` ends the lease and frees the path for a new open. */
export interface FileLock {
  readonly path: string;
  /** Set when this lock was taken over from a holder whose lease had run out. */
  readonly takenOver: StaleOwner | undefined;
  release(): void;
}

export interface LockOptions {
  /** Told about a takeover (the operator should know a previous run died). */
  warn?: (message: string) => void;
  /** The lease could not be renewed: this process must stop writing. Default: log and exit. */
  onCompromised?: (err: Error) => void;
}

/** Takes the lease at `lockPath` (e.g. `data/requests.lock`), taking over a dead holder's, or throws StoreLockedError. */
export function acquireLock(lockPath: string, options: LockOptions = {}): FileLock {
  const path = resolve(lockPath);
  if (held.has(path)) throw new StoreLockedError(path, `${path}: this store is already open in this process (one instance per file)`);
  refuseOldFormat(path);
  const lockOptions = { lockfilePath: path, realpath: false, stale: timing.staleMs, update: timing.updateMs };
  const previous = readOwner(path);
  let stale = false;
  if (existsSync(path)) {
    if (lockfile.checkSync(path, lockOptions)) throw new StoreLockedError(path, describeHolder(path, previous));
    if (!removeIfStillStale(path)) throw new StoreLockedError(path, describeHolder(path, readOwner(path)));
    stale = true;
  }
  let releaseLease: () => void;
  try {
    releaseLease = lockfile.lockSync(path, { ...lockOptions, onCompromised: (err) => compromised(path, err, options) });
  } catch (err) {
    // Another starter took it between our check and our mkdir.
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new StoreLockedError(path, describeHolder(path, readOwner(path)));
    throw err;
  }
  writeOwner(path);
  held.add(path);
  const takenOver = stale ? (previous ?? { pid: 0, host: 'unknown', since: 'unknown' }) : undefined;
  if (takenOver) {
    options.warn?.(
      `${path}: took over a lock whose holder (pid ${takenOver.pid} on ${takenOver.host}, since ${takenOver.since}) stopped renewing it ` +
        `more than ${Math.round(timing.staleMs / 1000)} s ago; the previous run most likely crashed`,
    );
  }
  let released = false;
  return {
    path,
    takenOver,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      rmSync(ownerFile(path), { force: true });
      try {
        releaseLease();
      } catch {
        // Already gone (compromised or removed by hand): nothing is held any more.
      }
    },
  };
}

/**
 * Removes a stale lease without ever removing a fresh one. proper-lockfile's own takeover
 * (rmdir, then mkdir) lets two starters that both judged the lease stale both end up holding
 * it: the second rmdir removes the first one's new lease. Here a starter renames the lease away
 * (rename is atomic: one starter moves a given directory), then checks that what it moved is the
 * lease it judged (same inode, still stale). Moving a fresh lease by mistake puts it back.
 * False when someone else holds a fresh lease now.
 */
function removeIfStillStale(path: string): boolean {
  let judged: Stats;
  try {
    judged = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true; // another starter moved it; our mkdir decides
    throw err;
  }
  const moved = statSync(aside);
  if (moved.ino === judged.ino && moved.dev === judged.dev && moved.mtimeMs < Date.now() - timing.staleMs) {
    rmSync(aside, { recursive: true, force: true });
    return true;
  }
  // A lease another starter had just created: put it back unless yet another one exists now.
  try {
    if (!existsSync(path)) renameSync(aside, path);
    else rmSync(aside, { recursive: true, force: true });
  } catch {
    rmSync(aside, { recursive: true, force: true });
  }
  return false;
}

function ownerFile(path: string): string {
  return `${path}-owner.json`;
}

function writeOwner(path: string): void {
  const owner: StaleOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  writeFileSync(ownerFile(path), JSON.stringify(owner) + '\n', { mode: FILE_MODE });
}

function readOwner(path: string): StaleOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(ownerFile(path), 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown };
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
    return { pid: o.pid, host: o.host, since: String(o.since) };
  } catch {
    return undefined;
  }
}

function describeHolder(path: string, owner: StaleOwner | undefined): string {
  const who = owner === undefined ? 'another process (its owner file is unreadable)' : `pid ${owner.pid} on ${owner.host}, since ${owner.since}`;
  return (
    `${path}: the store is held by ${who}, which renewed its lease within the last ${Math.round(timing.staleMs / 1000)} s, so it is alive ` +
    '(on this machine or another sharing this data folder). Another bot instance uses this store: stop it first. ' +
    `A holder that died is taken over by itself ${Math.round(timing.staleMs / 1000)} s after its last renewal.`
  );
}

/** A lock file of the version before leases (a file holding a pid): its owner cannot be judged any more. */
function refuseOldFormat(path: string): void {
  if (!existsSync(path) || statSync(path).isDirectory()) return;
  const text = readFileSync(path, 'utf8').trim().slice(0, 200);
  throw new StoreLockedError(
    path,
    `${path} is a lock file of an older version of the bot (${text}). Stop every bot on this data folder; if none runs, delete ${path} and start again.`,
  );
}

function compromised(path: string, err: Error, options: LockOptions): void {
  held.delete(path);
  if (options.onCompromised) {
    options.onCompromised(err);
    return;
  }
  // Another process may hold the store now: a single write more could fork the records.
  process.stderr.write(`FATAL ${path}: the store's lease could not be renewed (${err.message}); stopping before another write.\n`);
  process.exit(75);
}
