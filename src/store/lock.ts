/**
 * One store instance per file. Inside the process a registry refuses a second open of the same
 * path; across processes an O_EXCL lock file holding the owner's pid does.
 *
 * A lock left behind by a crash is never taken over automatically: two bots starting at once
 * could both decide it is stale and both proceed, and two writers on one file would execute
 * approved requests twice. The refusal says whether the recorded pid is still running here and
 * how to clear the lock (delete the file once no bot is running).
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fsyncDirectory, FILE_MODE } from './durable-io.js';
import { StoreLockedError } from './errors.js';

const held = new Set<string>();
let exitHookInstalled = false;

/** A held lock; `release` deletes the lock file and frees the path for a new open. */
export interface FileLock {
  readonly path: string;
  release(): void;
}

/** Takes the lock at `lockPath` (e.g. `data/requests.lock`) or throws StoreLockedError. */
export function acquireLock(lockPath: string): FileLock {
  const path = resolve(lockPath);
  if (held.has(path)) {
    throw new StoreLockedError(path, `${path}: this store is already open in this process (one instance per file)`);
  }
  let fd: number;
  try {
    fd = openSync(path, 'wx', FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreLockedError(path, describeExisting(path));
    throw err;
  }
  try {
    const owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    writeSync(fd, JSON.stringify(owner) + '\n');
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dirname(path));
  held.add(path);
  installExitHook();
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      rmSync(path, { force: true });
    },
  };
}

function describeExisting(path: string): string {
  let owner: { pid?: unknown; host?: unknown; since?: unknown } = {};
  try {
    owner = JSON.parse(readFileSync(path, 'utf8')) as typeof owner;
  } catch {
    // An unreadable lock file still means "locked"; the message below covers it.
  }
  const pid = typeof owner.pid === 'number' ? owner.pid : undefined;
  const who = pid === undefined ? 'an unknown process' : `pid ${pid} on ${String(owner.host)} since ${String(owner.since)}`;
  let state = '';
  if (pid === process.pid && owner.host === hostname()) {
    // Our own pid but not in our registry: an earlier run with the same pid (containers) crashed.
    state = ' That is this process id, reused after a crash of an earlier run.';
  } else if (pid !== undefined && owner.host === hostname()) {
    state = isRunning(pid)
      ? ` That process is running: another bot instance probably uses this store.`
      : ` That process is not running: the lock was most likely left by a crash.`;
  }
  return (
    `${path}: the store is locked by ${who}.${state} ` +
    `If no bot is using this data folder, delete ${path} and start again.`
  );
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
