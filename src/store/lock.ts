/**
 * One store instance per file. Inside the process a registry refuses a second open of the same
 * path; across processes an O_EXCL lock file holding the owner's pid does.
 *
 * A lock left behind by a crash (OOM kill, SIGKILL, power cut) is taken over, so a supervised bot
 * restarts by itself: only when the recorded owner is on this host and its pid is not running
 * (or is our own pid, reused after a crash, as pid 1 is in every container start). A live owner,
 * an owner on another host or an unreadable lock file still refuse.
 *
 * Takeover without a second writer: two bots starting at once may both judge the same lock
 * stale. Each renames the lock file to a name of its own; rename is atomic, so only one of them
 * moves the stale file. Each then checks that the file it moved is the one it judged (same inode,
 * same bytes). The winner deletes it and creates its lock with O_EXCL, which again only one
 * process can do. A loser that moved the winner's fresh lock instead puts it back with link(),
 * which never overwrites, and starts over (then finds a live owner and refuses).
 * Residual risk, accepted: a third starter that creates a lock in the instant between a loser's
 * rename and its put-back; the put-back then fails and the loser stops with an error that says so.
 * A lock is created by linking a fully written temporary file into place, so a crash never leaves
 * an empty lock file that nobody could judge.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fsyncDirectory, FILE_MODE } from './durable-io.js';
import { StoreLockedError } from './errors.js';

const held = new Set<string>();
let exitHookInstalled = false;
/** Rounds of "create, or judge and take over" before giving up (each loss means someone else moved). */
const MAX_ROUNDS = 5;

/** Who held a lock that was taken over, as its file said. */
export interface StaleOwner {
  pid: number;
  host: string;
  since: string;
}

/** A held lock; `release` deletes the lock file and frees the path for a new open. */
export interface FileLock {
  readonly path: string;
  /** Set when this lock was taken over from a process that died holding it. */
  readonly takenOver: StaleOwner | undefined;
  release(): void;
}

export interface LockOptions {
  /** Told about a takeover (the operator should know a previous run died). */
  warn?: (message: string) => void;
}

/** Takes the lock at `lockPath` (e.g. `data/requests.lock`), taking over a dead owner's, or throws StoreLockedError. */
export function acquireLock(lockPath: string, options: LockOptions = {}): FileLock {
  const path = resolve(lockPath);
  if (held.has(path)) {
    throw new StoreLockedError(path, `${path}: this store is already open in this process (one instance per file)`);
  }
  // The stale owner we removed; it counts as a takeover only if our create then wins.
  let removed: StaleOwner | undefined;
  for (let round = 0; ; round++) {
    if (tryCreate(path)) break;
    removed = undefined;
    const existing = readExisting(path);
    if (existing === undefined) continue; // removed between our create and our read: try again
    const stale = staleOwner(existing.text);
    if (stale === undefined || round >= MAX_ROUNDS) throw new StoreLockedError(path, describeExisting(path, existing.text));
    if (moveAwayIfUnchanged(path, existing)) removed = stale;
  }
  const takenOver = removed;
  if (takenOver) {
    removeDeadTemps(path);
    options.warn?.(
      `${path}: took over a lock left by pid ${takenOver.pid} on ${takenOver.host} (since ${takenOver.since}), which is no longer running; ` +
        'the previous run most likely crashed',
    );
  }
  held.add(path);
  installExitHook();
  let released = false;
  return {
    path,
    takenOver,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      rmSync(path, { force: true });
    },
  };
}

/**
 * Creates the lock holding our pid; false when a lock file exists. The content is written to a
 * temporary file first and linked into place (link() fails if the name exists, like O_EXCL), so a
 * lock file is never seen empty or half-written, even after a crash at the worst instant.
 */
function tryCreate(path: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const fd = openSync(temp, 'wx', FILE_MODE);
  try {
    writeSync(fd, JSON.stringify(owner) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncDirectory(dirname(path));
  return true;
}

/** Debris of processes that died mid-way: lock contents not yet linked, stale locks moved aside. */
function removeDeadTemps(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    const m = name.startsWith(prefix) ? /^(?:(\d+)\.[0-9a-f]{8}\.tmp|stale-(\d+)-[0-9a-f]{8})$/.exec(name.slice(prefix.length)) : null;
    const pid = m ? Number(m[1] ?? m[2]) : undefined;
    if (pid !== undefined && pid !== process.pid && !isRunning(pid)) rmSync(join(dirname(path), name), { force: true });
  }
}

interface Existing {
  text: string;
  ino: number;
  dev: number;
}

function readExisting(path: string): Existing | undefined {
  try {
    const st = statSync(path);
    const text = readFileSync(path, 'utf8');
    return { text, ino: st.ino, dev: st.dev };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The owner recorded in `text` when it is provably dead on this host; undefined otherwise. */
function staleOwner(text: string): StaleOwner | undefined {
  const owner = parseOwner(text);
  if (owner === undefined || owner.host !== hostname()) return undefined;
  // Our own pid in a lock we do not hold (the registry says so): an earlier run with this pid died.
  if (owner.pid === process.pid) return owner;
  return isRunning(owner.pid) ? undefined : owner;
}

function parseOwner(text: string): StaleOwner | undefined {
  try {
    const o = JSON.parse(text) as { pid?: unknown; host?: unknown; since?: unknown };
    if (typeof o.pid !== 'number' || !Number.isInteger(o.pid) || o.pid <= 0 || typeof o.host !== 'string') return undefined;
    return { pid: o.pid, host: o.host, since: String(o.since) };
  } catch {
    return undefined;
  }
}

/**
 * Renames the lock file away and keeps it gone only if it is the file judged stale (same inode
 * and bytes). True when the stale lock is gone; false when another starter got there first.
 */
function moveAwayIfUnchanged(path: string, judged: Existing): boolean {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // someone else moved it
    throw err;
  }
  let same = false;
  const fd = openSync(aside, 'r');
  try {
    const st = fstatSync(fd);
    same = st.ino === judged.ino && st.dev === judged.dev && readFileSync(fd, 'utf8') === judged.text;
  } finally {
    closeSync(fd);
  }
  if (same) {
    rmSync(aside, { force: true });
    fsyncDirectory(dirname(path));
    return true;
  }
  // We moved a live lock another starter had just created: put it back, never over a new one.
  try {
    linkSync(aside, path);
  } catch (err) {
    throw new StoreLockedError(
      path,
      `${path}: two starters raced to take over a stale lock and a third created one meanwhile; ` +
        `stop every bot on this data folder and start one (the displaced lock is ${aside}). (${(err as Error).message})`,
    );
  }
  rmSync(aside, { force: true });
  return false;
}

function describeExisting(path: string, text: string): string {
  const owner = parseOwner(text);
  const who = owner === undefined ? 'an unknown process (unreadable lock file)' : `pid ${owner.pid} on ${owner.host} since ${owner.since}`;
  let state = '';
  if (owner !== undefined && owner.host !== hostname()) {
    state = ' That is another host: whether it still runs cannot be checked from here.';
  } else if (owner !== undefined && isRunning(owner.pid)) {
    state = ' That process is running: another bot instance probably uses this store.';
  }
  return `${path}: the store is locked by ${who}.${state} If no bot is using this data folder, delete ${path} and start again.`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A normal exit (including process.exit) removes our lock files; only a crash leaves them. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const path of held) rmSync(path, { force: true });
  });
}
