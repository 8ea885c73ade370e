// One store instance per file: a registry in the process, a lease directory across processes (mkdir
// is atomic), taken over at once from a dead local owner, else only after it goes stale; `assertHeld`
// before each write stops a paused holder. The argument: docs/store.md "The file lease".
import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { FILE_MODE } from './durable-io.js';
import { StoreLockedError } from './errors.js';

/** Long enough that a slow fsync or busy loop never loses it; short enough that an uncheckable restart waits at most half a minute. */
export const LOCK_STALE_MS = 30_000;
/** How often a holder renews its lease: several renewals fit in one stale period. */
export const LOCK_UPDATE_MS = 5_000;

const timing = { staleMs: LOCK_STALE_MS, updateMs: LOCK_UPDATE_MS };

/** Shorter leases for tests that kill a holder and wait for the takeover. */
export function setLockTiming(t: { staleMs: number; updateMs: number }): void {
  timing.staleMs = t.staleMs;
  timing.updateMs = t.updateMs;
}

/** Who held a lease (its owner file), as a start found it. */
export interface LeaseOwner {
  pid: number;
  host: string;
  since: string;
  /** /proc/sys/kernel/random/boot_id of the holder's machine (absent off Linux). */
  boot?: string;
  /** readlink /proc/self/ns/pid of the holder (absent off Linux). */
  pidNamespace?: string;
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat), to tell a reused pid. */
  started?: number;
}

interface OwnerFile extends LeaseOwner {
  token: string;
}

/** Who held a lock that was taken over, and why it could be. */
export interface StaleOwner extends LeaseOwner {
  /** `gone`: its process no longer runs here; `expired`: its lease ran out. */
  reason: 'gone' | 'expired';
}

/** A held lock; `release` ends the lease and frees the path for a new open. */
export interface FileLock {
  readonly path: string;
  /** Set when this lock was taken over from a holder that died. */
  readonly takenOver: StaleOwner | undefined;
  /** Called before every write: throws (and tells `onCompromised`) unless the lease is still ours with time left. */
  assertHeld(): void;
  release(): void;
}

export interface LockOptions {
  /** Told about a wait for a lease and a takeover (the operator should know a previous run died). */
  warn?: (message: string) => void;
  /** The lease was lost: this process must stop writing. Default: say so on stderr and exit 75. */
  onCompromised?: (err: Error) => void;
}

const OWNER_FILE = 'owner.json';
const held = new Map<string, () => void>();

/** At once when free or its holder is gone from this machine, after it runs out when uncheckable; StoreLockedError if renewed. */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<FileLock> {
  const path = resolve(lockPath);
  if (held.has(path))
    throw new StoreLockedError(path, `${path}: this store is already open in this process (one instance per file)`);
  refuseOldFormat(path);
  let takenOver: StaleOwner | undefined;
  let watched: Lease | undefined;
  for (;;) {
    const owner = create(path);
    if (owner !== undefined) return hold(path, owner, takenOver, options);
    const lease = inspect(path);
    if (lease === undefined) continue; // released meanwhile: try again
    const why =
      lease.stat.mtimeMs < Date.now() - timing.staleMs ? 'expired' : holderGone(lease.owner) ? 'gone' : undefined;
    if (why !== undefined) {
      const removed = removeIfStill(path, lease, why);
      if (removed === 'removed')
        takenOver = { ...(lease.owner ?? { pid: 0, host: 'unknown', since: 'unknown' }), reason: why };
      else if (removed === 'busy') await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    if (watched === undefined) {
      watched = lease;
      options.warn?.(describeWait(path, lease));
    } else if (lease.stat.mtimeMs !== watched.stat.mtimeMs || !sameLease(lease, watched)) {
      // Renewed (or taken by another start): its holder is alive.
      throw new StoreLockedError(path, describeHolder(path, lease.owner));
    }
    await new Promise((r) => setTimeout(r, Math.min(250, timing.updateMs / 4)));
  }
}

interface Lease {
  stat: Stats;
  owner: LeaseOwner | undefined;
  /** The owner file as found: a new lease may get a removed one's inode number, never its owner. */
  ownerText: string | undefined;
}

function sameLease(a: Lease, b: Lease): boolean {
  return a.stat.ino === b.stat.ino && a.stat.dev === b.stat.dev && a.ownerText === b.ownerText;
}

/** mkdir the lease and write its owner (returned: what tells this lease from any other); undefined when a lease is there. */
function create(path: string): string | undefined {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  }
  // Written beside, then renamed in: a reader never sees half an owner.
  const temp = join(path, `${OWNER_FILE}.tmp`);
  const text = JSON.stringify(ownerOfThisProcess()) + '\n';
  writeFileSync(temp, text, { mode: FILE_MODE });
  renameSync(temp, join(path, OWNER_FILE));
  return text;
}

function inspect(path: string): Lease | undefined {
  let stat: Stats;
  let ownerText: string | undefined;
  try {
    stat = statSync(path);
    ownerText = readFileSync(join(path, OWNER_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // A holder between its mkdir and its owner file, or one that died there; or a bot of the
    // version that wrote its owner beside the lease (named in messages, never judged gone).
    const there = statIfThere(path);
    if (there === undefined) return undefined;
    return { stat: there, owner: parseOwner(readIfThere(`${path}-owner.json`)), ownerText: undefined };
  }
  return { stat, owner: parseOwner(ownerText), ownerText };
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function hold(path: string, ownerText: string, takenOver: StaleOwner | undefined, options: LockOptions): FileLock {
  rmSync(`${path}-owner.json`, { force: true }); // the owner file of the version before owners lived inside
  let lost: Error | undefined;
  const loseLease = (err: Error) => {
    if (lost) return;
    lost = err;
    stop();
    compromised(path, err, options);
  };
  /** Why the lease is not ours to write under any more, if it is not; else how long ago it was renewed. */
  const standing = (): { why: string } | { ageMs: number } => {
    let now: Lease | undefined;
    try {
      now = inspect(path);
    } catch (err) {
      return { why: `the lease cannot be read (${(err as Error).message})` };
    }
    if (now === undefined) return { why: 'the lease directory is gone' };
    if (now.ownerText !== ownerText) return { why: `another process holds the lease now (${who(now.owner)})` };
    const ageMs = Date.now() - now.stat.mtimeMs;
    if (ageMs > timing.staleMs)
      return {
        why: `the lease was last renewed ${seconds(ageMs)} ago (this process was paused or blocked), so another start may hold it`,
      };
    return { ageMs };
  };
  /** Renews the lease if it is still ours; the reason it is not, otherwise. */
  const renew = (): string | undefined => {
    const before = standing();
    if ('why' in before) return before.why;
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch (err) {
      return `the lease could not be renewed (${(err as Error).message})`;
    }
    // A start may have moved the lease away between the look and the renewal.
    const after = standing();
    return 'why' in after ? after.why : undefined;
  };
  const renewOrLose = () => {
    const why = renew();
    if (why !== undefined) loseLease(new Error(why));
  };
  const timer = setInterval(renewOrLose, timing.updateMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    held.delete(path);
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    stop();
    if (lost !== undefined) return; // whatever is at the path may be a new holder's
    try {
      if (inspect(path)?.ownerText !== ownerText) return;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Already gone: nothing is held any more.
    }
  };
  held.set(path, release);
  onExitReleaseAll();
  if (takenOver) options.warn?.(describeTakeover(path, takenOver));
  return {
    path,
    takenOver,
    assertHeld() {
      if (lost) throw lost;
      const now = standing();
      // A renewal that is late (a busy event loop) is made now, before the write, not after it.
      const why = 'why' in now ? now.why : now.ageMs > timing.updateMs ? renew() : undefined;
      if (why === undefined) return;
      const err = new Error(`${path}: ${why}; refusing to write`);
      loseLease(err);
      throw err;
    },
    release,
  };
}

let exitHook = false;
/** A process that exits without closing its stores (process.exit) ends its leases, as close would. */
function onExitReleaseAll(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const release of [...held.values()]) release();
  });
}

/**
 * Two starters may both judge a lease stale. Only the one holding the takeover directory (mkdir, atomic)
 * removes a lease, and only after looking again that it is the one judged (inode, owner, staleness): a
 * lease another start has just created is never moved or removed.
 */
function removeIfStill(path: string, judged: Lease, why: StaleOwner['reason']): 'removed' | 'changed' | 'busy' {
  const takeover = `${path}.takeover`;
  if (!enterTakeover(takeover)) return 'busy';
  try {
    const now = inspect(path);
    const same =
      now !== undefined && sameLease(now, judged) && (why === 'gone' || now.stat.mtimeMs < Date.now() - timing.staleMs);
    if (!same) return 'changed';
    rmSync(path, { recursive: true, force: true });
    return 'removed';
  } finally {
    rmSync(takeover, { recursive: true, force: true });
  }
}

/** A takeover lasts a few file operations; one left by a starter that died inside it is cleared after a renewal period. */
function enterTakeover(takeover: string): boolean {
  try {
    mkdirSync(takeover, { mode: 0o700 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const since = statIfThere(takeover)?.mtimeMs;
  if (since !== undefined && since < Date.now() - timing.updateMs) rmSync(takeover, { recursive: true, force: true });
  return false;
}

function statIfThere(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** This machine's boot and this process's pid namespace; undefined off Linux. */
function machineSession(): { boot: string; pidNamespace: string } | undefined {
  try {
    return {
      boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidNamespace: readlinkSync('/proc/self/ns/pid'),
    };
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot; with its state. */
function processStat(pid: number | 'self'): { state: string; started: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, started: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function ownerOfThisProcess(): OwnerFile {
  const session = machineSession();
  const started = processStat('self')?.started;
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...session,
    ...(started === undefined ? {} : { started }),
    // Two leases never have the same owner file, even from one process within a millisecond.
    token: randomBytes(8).toString('hex'),
  };
}

/** The owner ran on this host, this boot and in this pid namespace: its pid means a process here. */
function ranHere(owner: LeaseOwner): boolean {
  const here = machineSession();
  return (
    here !== undefined &&
    owner.host === hostname() &&
    owner.boot === here.boot &&
    owner.pidNamespace === here.pidNamespace
  );
}

/** Only when the owner ran here (its pid means the same process) and is gone: no pid, a zombie, or another process's. */
function holderGone(owner: LeaseOwner | undefined): boolean {
  if (owner === undefined || !ranHere(owner)) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  // The pid exists. Unreadable details (another user's process under hidepid) prove nothing: alive.
  const stat = processStat(owner.pid);
  if (stat === undefined) return false;
  return stat.state === 'Z' || (owner.started !== undefined && stat.started !== owner.started);
}

function parseOwner(text: string | undefined): LeaseOwner | undefined {
  if (text === undefined) return undefined;
  try {
    const o = JSON.parse(text) as Partial<Record<keyof LeaseOwner, unknown>>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
    return {
      pid: o.pid,
      host: o.host,
      since: String(o.since),
      ...(typeof o.boot === 'string' ? { boot: o.boot } : {}),
      ...(typeof o.pidNamespace === 'string' ? { pidNamespace: o.pidNamespace } : {}),
      ...(typeof o.started === 'number' ? { started: o.started } : {}),
    };
  } catch {
    return undefined;
  }
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const who = (owner: LeaseOwner | undefined) =>
  owner === undefined
    ? 'another process (its owner is not recorded)'
    : `pid ${owner.pid} on ${owner.host}, since ${owner.since}`;

function describeWait(path: string, lease: Lease): string {
  const owner = lease.owner;
  const reason =
    owner === undefined
      ? 'its owner is not recorded'
      : owner.boot === undefined || owner.pidNamespace === undefined
        ? 'its owner (written by an older version) does not say which boot and pid namespace it ran in'
        : !ranHere(owner)
          ? 'it ran on another machine, boot or container (pid namespace), where this start cannot see whether it still runs'
          : `pid ${owner.pid} runs on this machine (that bot, or another process that got its pid)`;
  const left = Math.max(0, lease.stat.mtimeMs + timing.staleMs - Date.now());
  return (
    `${path}: the store's lease is held by ${who(owner)}, renewed ${seconds(Date.now() - lease.stat.mtimeMs)} ago; ${reason}. ` +
    `Waiting up to ${seconds(left)} for the lease to run out, then taking it over; if its holder renews it meanwhile, it is alive and this start stops.`
  );
}

function describeTakeover(path: string, owner: StaleOwner): string {
  const what =
    owner.reason === 'gone'
      ? 'no longer runs on this machine'
      : `stopped renewing it more than ${seconds(timing.staleMs)} ago`;
  return `${path}: took over a lock whose holder (${who(owner)}) ${what}; the previous run most likely crashed or was killed`;
}

function describeHolder(path: string, owner: LeaseOwner | undefined): string {
  return (
    `${path}: the store is held by ${who(owner)}, which renewed its lease within the last ${seconds(timing.staleMs)}, so it is alive ` +
    '(on this machine or another sharing this data folder). Another bot instance uses this store: stop it first.'
  );
}

/** A lock file of the version before leases (a file holding a pid): its owner cannot be judged any more. */
function refuseOldFormat(path: string): void {
  // Looked at once: another start may take the lease over (remove it) between two looks.
  const there = statIfThere(path);
  if (there === undefined || there.isDirectory()) return;
  const text = (readIfThere(path) ?? '').trim().slice(0, 200);
  throw new StoreLockedError(
    path,
    `${path} is a lock file of an older version of the bot (${text}). Stop every bot on this data folder; if none runs, delete ${path} and start again.`,
  );
}

/** The exit status of a process that lost its store lease (EX_TEMPFAIL: a supervisor starts it again). */
export const LEASE_LOST_EXIT = 75;

function compromised(path: string, err: Error, options: LockOptions): void {
  if (options.onCompromised) {
    options.onCompromised(err);
    return;
  }
  // Another process may hold the store now: a single write more could fork the records.
  process.stderr.write(`FATAL ${path}: the store's lease was lost (${err.message}); stopping before another write.\n`);
  process.exit(LEASE_LOST_EXIT);
}
