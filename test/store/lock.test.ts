/**
 * The store's lease: a live holder refuses a second one, with a message naming it, whatever the
 * pid namespace; a holder that stopped renewing (killed, frozen) is taken over after the stale
 * time, and the takeover is said and audited; starters racing for one stale lease end with
 * exactly one holder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog, verifyAuditLog } from '../../src/store/audit-log.js';
import { StoreLockedError } from '../../src/store/errors.js';
import { openKeyValueStore } from '../../src/store/kv.js';
import { acquireLock, LOCK_STALE_MS, LOCK_UPDATE_MS, setLockTiming } from '../../src/store/lock.js';
import { tempDir } from './support/temp.js';

// proper-lockfile's shortest stale time is 2 s.
const STALE_MS = 2_000;
beforeAll(() => setLockTiming({ staleMs: STALE_MS, updateMs: 1_000 }));
afterAll(() => setLockTiming({ staleMs: LOCK_STALE_MS, updateMs: LOCK_UPDATE_MS }));

/** A lease its holder stopped renewing `ageMs` ago, with the owner file it left. */
function deadLease(path: string, ageMs = 10 * STALE_MS, pid = 4242): void {
  mkdirSync(path);
  writeFileSync(`${path}-owner.json`, JSON.stringify({ pid, host: 'gone-host', since: '2025-01-01T00:00:00.000Z' }));
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

const CHILD = fileURLToPath(new URL('./support/lock-child.ts', import.meta.url));

/** A child that takes the lock on "go" and holds it until its stdin closes. */
function lockChild(path: string, prefix: string[] = []) {
  const [cmd, ...args] = [...prefix, process.execPath, '--import', 'tsx', CHILD, path, String(STALE_MS)];
  const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => lines.push(...d.split('\n').filter(Boolean)));
  const waitFor = (pred: () => boolean, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const t = setInterval(() => {
        if (pred()) {
          clearInterval(t);
          resolve();
        } else if (Date.now() - started > ms) {
          clearInterval(t);
          reject(new Error(`child said only: ${lines.join(' | ')}`));
        }
      }, 10);
    });
  return { child, lines, waitFor, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
}

describe('the store lease', () => {
  it('refuses while a live holder renews it, naming the holder, and leaves it untouched', async () => {
    const path = join(tempDir(), 'x.lock');
    const holder = lockChild(path);
    await holder.waitFor(() => holder.lines.includes('ready'));
    holder.child.stdin!.write('go\n');
    await holder.waitFor(() => holder.lines.some((l) => l.startsWith('got')));
    // Well past the stale time: a live holder keeps renewing, so it is never taken over.
    await new Promise((r) => setTimeout(r, 2 * STALE_MS));
    let refused: Error | undefined;
    try {
      acquireLock(path);
    } catch (err) {
      refused = err as Error;
    }
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect(refused!.message).toMatch(new RegExp(`held by pid ${holder.child.pid} on .*renewed its lease .*alive`));
    holder.child.stdin!.end();
    expect(await holder.exited).toBe(0);
    expect(existsSync(path)).toBe(false);
  }, 20_000);

  it('takes over a lease nobody renewed for the stale time, says whose, and holds it', () => {
    const path = join(tempDir(), 'x.lock');
    deadLease(path);
    const warnings: string[] = [];
    const lock = acquireLock(path, { warn: (m) => warnings.push(m) });
    expect(lock.takenOver).toMatchObject({ pid: 4242, host: 'gone-host' });
    expect(warnings.join('\n')).toMatch(/took over a lock whose holder \(pid 4242 on gone-host.*stopped renewing it/);
    expect(JSON.parse(readFileSync(`${path}-owner.json`, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('a fresh lease is no takeover; the same path twice in one process is refused', () => {
    const path = join(tempDir(), 'x.lock');
    const lock = acquireLock(path);
    expect(lock.takenOver).toBeUndefined();
    expect(() => acquireLock(path)).toThrow(/already open in this process/);
    lock.release();
  });

  it('refuses the lock file of the version before leases, and leaves it for the operator', () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: 1, host: 'h', since: 'then' }));
    expect(() => acquireLock(path)).toThrow(/older version of the bot.*delete/);
    expect(readFileSync(path, 'utf8')).toContain('"pid":1');
  });

  it('a SIGKILLed holder is taken over once its lease is stale, not before', async () => {
    const path = join(tempDir(), 'x.lock');
    const holder = lockChild(path);
    await holder.waitFor(() => holder.lines.includes('ready'));
    holder.child.stdin!.write('go\n');
    await holder.waitFor(() => holder.lines.some((l) => l.startsWith('got')));
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(() => acquireLock(path)).toThrow(StoreLockedError);
    // A renewal writes the mtime rounded up to the file system's precision (up to a second ahead).
    await new Promise((r) => setTimeout(r, STALE_MS + 1_500));
    const lock = acquireLock(path);
    expect(lock.takenOver?.pid).toBe(holder.child.pid);
    lock.release();
  }, 20_000);

  it('four processes racing for one stale lease: exactly one ends up holding it, the others are refused', async () => {
    const path = join(tempDir(), 'x.lock');
    deadLease(path);
    const children = Array.from({ length: 4 }, () => lockChild(path));
    await Promise.all(children.map((c) => c.waitFor(() => c.lines.includes('ready'))));
    for (const c of children) c.child.stdin!.write('go\n');
    await Promise.all(children.map((c) => c.waitFor(() => c.lines.length >= 2)));
    const outcomes = children.map((c) => c.lines[1]!);
    expect(outcomes.filter((o) => o.startsWith('got'))).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'refused StoreLockedError')).toHaveLength(3);
    for (const c of children) c.child.stdin!.end();
    await Promise.all(children.map((c) => c.exited));
    expect(existsSync(path)).toBe(false);
  }, 30_000);
});

/**
 * Two containers on one volume, each with its own pid namespace: both processes may be pid 1, and
 * neither sees the other's processes. The lease tells them apart anyway.
 */
describe('two bots in separate pid namespaces on one data folder', () => {
  // --kill-child: killing the unshare process kills the namespace's pid 1, as stopping a container does.
  const unshare = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];
  const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  const name = 'one runs, the other is refused with a message naming the holder; after the holder dies, the other takes over';

  it.skipIf(!canUnshare)(canUnshare ? name : `${name} (skipped: unshare --pid needs util-linux and root here)`, async () => {
    const path = join(tempDir(), 'requests.lock');
    const first = lockChild(path, unshare);
    await first.waitFor(() => first.lines.includes('ready'));
    first.child.stdin!.write('go\n');
    await first.waitFor(() => first.lines.some((l) => l.startsWith('got')));
    const owner = JSON.parse(readFileSync(`${path}-owner.json`, 'utf8')) as { pid: number };
    // Inside its own namespace the holder is pid 1 (or near it): a pid check from here would be meaningless.
    expect(owner.pid).toBeLessThan(10);
    const second = lockChild(path, unshare);
    await second.waitFor(() => second.lines.includes('ready'));
    second.child.stdin!.write('go\n');
    await second.waitFor(() => second.lines.length >= 2);
    expect(second.lines[1]).toBe('refused StoreLockedError');
    expect(second.lines.join('\n')).toMatch(new RegExp(`held by pid ${owner.pid} on .*alive`));
    second.child.stdin!.end();
    await second.exited;
    first.child.kill('SIGKILL');
    await first.exited;
    // A renewal writes the mtime rounded up to the file system's precision (up to a second ahead).
    await new Promise((r) => setTimeout(r, STALE_MS + 1_500));
    const third = lockChild(path, unshare);
    await third.waitFor(() => third.lines.includes('ready'));
    third.child.stdin!.write('go\n');
    await third.waitFor(() => third.lines.length >= 2);
    expect(third.lines[1]).toBe('got takeover');
    third.child.stdin!.end();
    await third.exited;
  }, 30_000);
});

describe('stores reopened after a crash', () => {
  it('the audit log records the takeover in its own chain', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.jsonl');
    deadLease(`${file}.lock`, 10 * STALE_MS, 777);
    const log = await openAuditLog({ file, clock: { now: () => Date.UTC(2025, 0, 1) } });
    await log.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'store.lock_taken_over', actor: 'system', data: { pid: 777 } });
    expect((await verifyAuditLog(file)).ok).toBe(true);
  });

  it("the key-value store opens over a dead holder's lease", async () => {
    const dir = tempDir();
    deadLease(join(dir, 'kv.lock'));
    const warnings: string[] = [];
    const kv = await openKeyValueStore({ dir, warn: (m) => warnings.push(m) });
    await kv.set('a', 1);
    expect(await kv.get('a')).toBe(1);
    await kv.close();
    expect(warnings).toHaveLength(1);
  });
});
