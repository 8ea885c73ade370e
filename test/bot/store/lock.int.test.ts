/**
 * The store's lease: a holder killed on this machine is taken over at once; one this start cannot
 * check (another machine or container) is waited for, said in the log, then taken over; a live
 * holder refuses a second one, with a message naming it, whatever the pid namespace; starters
 * racing for one lease end with exactly one holder; a holder paused past the stale time (SIGSTOP)
 * writes nothing after it resumes, whether or not another start took over.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog, verifyAuditLog } from '../../../src/bot/store/audit-log.js';
import { StoreLockedError } from '../../../src/bot/store/errors.js';
import { openKeyValueStore } from '../../../src/bot/store/kv.js';
import { acquireLock, LOCK_STALE_MS, LOCK_UPDATE_MS, setLockTiming } from '../../../src/bot/store/lock.js';
import { tempDir } from './support/temp.js';

const STALE_MS = 2_000;
beforeAll(() => setLockTiming({ staleMs: STALE_MS, updateMs: STALE_MS / 4 }));
afterAll(() => setLockTiming({ staleMs: LOCK_STALE_MS, updateMs: LOCK_UPDATE_MS }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lease directory with the owner file a holder writes into it, last renewed `ageMs` ago. */
function leaseOf(path: string, owner: Record<string, unknown>, ageMs: number): void {
  mkdirSync(path);
  writeFileSync(join(path, 'owner.json'), JSON.stringify({ since: '2025-01-01T00:00:00.000Z', ...owner }));
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

/** A lease its holder on another machine stopped renewing `ageMs` ago. */
function deadLease(path: string, ageMs = 10 * STALE_MS, pid = 4242): void {
  leaseOf(path, { pid, host: 'gone-host' }, ageMs);
}

/** This machine's boot and this process's pid namespace, as a holder here records them. */
function hereOwner(pid: number): Record<string, unknown> {
  return {
    pid,
    host: hostname(),
    boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    pidNamespace: readlinkSync('/proc/self/ns/pid'),
  };
}

/** A pid no process has now (a child that ran and was reaped). */
function deadPid(): number {
  const ran = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(ran.stdout);
}

const CHILD = fileURLToPath(new URL('./support/lock-child.ts', import.meta.url));
const WRITER = fileURLToPath(new URL('./support/writer-child.ts', import.meta.url));

/** Lines a child prints, and a wait for one. */
function watchLines(child: ChildProcess) {
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
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { lines, waitFor, exited };
}

/** A child that takes the lock on "go" and holds it until its stdin closes. */
function lockChild(path: string, prefix: string[] = []) {
  const [cmd, ...args] = [...prefix, process.execPath, '--import', 'tsx', CHILD, path, String(STALE_MS)];
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const watched = watchLines(child);
  /** What the attempt ended with: `got fresh`, `got takeover` or `refused StoreLockedError`. */
  const outcome = () => watched.lines.find((l) => l.startsWith('got') || l.startsWith('refused'));
  return { child, ...watched, outcome };
}

describe('the store lease', () => {
  it('a live holder is waited for until it renews, then refused with a message naming it, and left untouched', async () => {
    const path = join(tempDir(), 'x.lock');
    const holder = lockChild(path);
    await holder.waitFor(() => holder.lines.includes('ready'));
    holder.child.stdin.write('go\n');
    await holder.waitFor(() => holder.outcome() !== undefined);
    // Well past the stale time: a live holder keeps renewing, so it is never taken over.
    await sleep(2 * STALE_MS);
    const warnings: string[] = [];
    const refused = await acquireLock(path, { warn: (m) => warnings.push(m) }).catch((err: unknown) => err as Error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as Error).message).toMatch(
      new RegExp(`held by pid ${holder.child.pid} on .*renewed its lease .*alive`),
    );
    expect(warnings.join('\n')).toMatch(
      new RegExp(`pid ${holder.child.pid} runs on this machine.*Waiting up to \\d+ s`),
    );
    holder.child.stdin.end();
    expect(await holder.exited).toBe(0);
    expect(existsSync(path)).toBe(false);
  }, 20_000);

  it('takes over a lease nobody renewed for the stale time, says whose, and holds it', async () => {
    const path = join(tempDir(), 'x.lock');
    deadLease(path);
    const warnings: string[] = [];
    const lock = await acquireLock(path, { warn: (m) => warnings.push(m) });
    expect(lock.takenOver).toMatchObject({ pid: 4242, host: 'gone-host', reason: 'expired' });
    expect(warnings.join('\n')).toMatch(/took over a lock whose holder \(pid 4242 on gone-host.*stopped renewing it/);
    expect(JSON.parse(readFileSync(join(path, 'owner.json'), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('a fresh lease is no takeover; the same path twice in one process is refused', async () => {
    const path = join(tempDir(), 'x.lock');
    const lock = await acquireLock(path);
    expect(lock.takenOver).toBeUndefined();
    await expect(acquireLock(path)).rejects.toThrow(/already open in this process/);
    lock.release();
  });

  it('refuses the lock file of the version before leases, and leaves it for the operator', async () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: 1, host: 'h', since: 'then' }));
    await expect(acquireLock(path)).rejects.toThrow(/older version of the bot.*delete/);
    expect(readFileSync(path, 'utf8')).toContain('"pid":1');
  });

  it('a holder killed with SIGKILL on this machine is taken over at once, its lease still fresh (kill -9, restart)', async () => {
    const path = join(tempDir(), 'x.lock');
    const holder = lockChild(path);
    await holder.waitFor(() => holder.lines.includes('ready'));
    holder.child.stdin.write('go\n');
    await holder.waitFor(() => holder.outcome() !== undefined);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const renewed = statSync(path).mtimeMs;
    const warnings: string[] = [];
    const lock = await acquireLock(path, { warn: (m) => warnings.push(m) });
    // Taken while the dead holder's lease had not run out: nobody waited for it.
    expect(Date.now()).toBeLessThan(renewed + STALE_MS);
    expect(lock.takenOver).toMatchObject({ pid: holder.child.pid, reason: 'gone' });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`took over a lock whose holder \\(pid ${holder.child.pid} .*no longer runs on this machine`),
      ),
    ]);
    lock.release();
  }, 20_000);

  it('a holder on this machine whose pid another process now has is gone: taken over at once', async () => {
    const path = join(tempDir(), 'x.lock');
    // This very process has the pid, but it started at another time than the holder did.
    leaseOf(path, { ...hereOwner(process.pid), started: 1 }, 0);
    const lock = await acquireLock(path);
    expect(lock.takenOver).toMatchObject({ pid: process.pid, reason: 'gone' });
    lock.release();
  });

  it('a holder this start cannot check (another machine or container) is waited for, said in the log, then taken over', async () => {
    const path = join(tempDir(), 'x.lock');
    leaseOf(path, { ...hereOwner(4242), host: 'other-host' }, 0);
    const renewed = statSync(path).mtimeMs;
    const warnings: string[] = [];
    const lock = await acquireLock(path, { warn: (m) => warnings.push(m) });
    expect(Date.now()).toBeGreaterThanOrEqual(renewed + STALE_MS);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /held by pid 4242 on other-host.*another machine, boot or container.*Waiting up to 2 s for the lease to run out/,
    );
    expect(warnings[1]).toMatch(/took over a lock whose holder \(pid 4242 on other-host.*stopped renewing it/);
    expect(lock.takenOver).toMatchObject({ pid: 4242, reason: 'expired' });
    lock.release();
  }, 10_000);

  it('a lease of the version that wrote its owner beside it is waited for, naming that owner, then taken over', async () => {
    const path = join(tempDir(), 'x.lock');
    mkdirSync(path);
    writeFileSync(
      `${path}-owner.json`,
      JSON.stringify({ pid: 4343, host: 'old-build-host', since: '2025-01-01T00:00:00.000Z' }),
    );
    const warnings: string[] = [];
    const lock = await acquireLock(path, { warn: (m) => warnings.push(m) });
    expect(warnings[0]).toMatch(/held by pid 4343 on old-build-host.*Waiting up to/);
    expect(lock.takenOver).toMatchObject({ pid: 4343, reason: 'expired' });
    expect(existsSync(`${path}-owner.json`)).toBe(false);
    lock.release();
  }, 10_000);

  it('a start never exits for a lease whose owner is not recorded: it waits for it to run out', async () => {
    const path = join(tempDir(), 'x.lock');
    mkdirSync(path);
    const lock = await acquireLock(path);
    expect(lock.takenOver).toMatchObject({ reason: 'expired' });
    lock.release();
  }, 10_000);

  for (const kind of ['expired', 'gone'] as const) {
    it(`four processes racing for one ${kind === 'expired' ? 'stale lease' : "dead holder's lease"}: exactly one ends up holding it, the others are refused`, async () => {
      const path = join(tempDir(), 'x.lock');
      if (kind === 'expired') deadLease(path);
      else leaseOf(path, hereOwner(deadPid()), 0);
      const children = Array.from({ length: 4 }, () => lockChild(path));
      await Promise.all(children.map((c) => c.waitFor(() => c.lines.includes('ready'))));
      for (const c of children) c.child.stdin.write('go\n');
      await Promise.all(children.map((c) => c.waitFor(() => c.outcome() !== undefined)));
      const outcomes = children.map((c) => c.outcome()!);
      // The one that moved the dead lease away is not always the one whose mkdir lands first.
      expect(outcomes.filter((o) => o.startsWith('got'))).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'refused StoreLockedError')).toHaveLength(3);
      for (const c of children) c.child.stdin.end();
      await Promise.all(children.map((c) => c.exited));
      expect(existsSync(path)).toBe(false);
    }, 30_000);
  }
});

/**
 * A holder stopped by SIGSTOP (or a frozen VM) past the stale time. Its timers are all overdue when
 * it resumes; whichever runs first, it must not write.
 */
describe('a holder paused past the stale time', () => {
  function writer(dir: string) {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, String(STALE_MS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return { child, ...watchLines(child), stderr: () => stderr };
  }
  const stored = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, 'kv.json'), 'utf8')) as { values: Record<string, unknown> }).values.writer;

  /** Stops the writer right after a write landed (so none is under way), as its value on disk shows. */
  async function pauseAfterAWrite(w: ReturnType<typeof writer>, dir: string): Promise<unknown> {
    await w.waitFor(() => w.lines.includes('wrote 2'));
    w.child.kill('SIGSTOP');
    const value = stored(dir);
    expect(value).toBeGreaterThanOrEqual(2);
    return value;
  }

  it('writes nothing after it resumes, and stops, even when nobody took its lease over', async () => {
    const dir = tempDir();
    const w = writer(dir);
    try {
      const before = await pauseAfterAWrite(w, dir);
      await sleep(STALE_MS + 500);
      const wrote = w.lines.length;
      w.child.kill('SIGCONT');
      const code = await Promise.race([w.exited, sleep(5_000).then(() => 'still running')]);
      expect(code).toBe(75);
      expect(w.stderr()).toMatch(/FATAL .*kv\.lock: the store's lease was lost \(.*last renewed \d+ s ago/);
      expect(w.lines.slice(wrote)).toEqual([]);
      expect(stored(dir)).toBe(before);
    } finally {
      w.child.kill('SIGKILL');
    }
  }, 20_000);

  it('writes nothing after it resumes when another start took the store over meanwhile (two real processes)', async () => {
    const dir = tempDir();
    const w = writer(dir);
    try {
      await pauseAfterAWrite(w, dir);
      // The paused holder's pid still runs here: this start waits for its lease to run out.
      const warnings: string[] = [];
      const kv = await openKeyValueStore({ dir, warn: (m) => warnings.push(m) });
      try {
        expect(warnings.join('\n')).toMatch(
          new RegExp(`pid ${w.child.pid} runs on this machine.*Waiting.*took over`, 's'),
        );
        await kv.set('writer', 'the new holder');
        const wrote = w.lines.length;
        w.child.kill('SIGCONT');
        const code = await Promise.race([w.exited, sleep(5_000).then(() => 'still running')]);
        expect(code).toBe(75);
        expect(w.lines.slice(wrote)).toEqual([]);
        expect(stored(dir)).toBe('the new holder');
        await kv.set('writer', 'still the new holder');
        expect(stored(dir)).toBe('still the new holder');
      } finally {
        await kv.close();
      }
    } finally {
      w.child.kill('SIGKILL');
    }
  }, 20_000);
});

/**
 * Two containers on one volume, each with its own pid namespace: both processes may be pid 1, and
 * neither sees the other's processes. The lease tells them apart anyway, and a restart in a new
 * namespace waits for the dead one's lease to run out.
 */
describe('two bots in separate pid namespaces on one data folder', () => {
  // --kill-child: killing the unshare process kills the namespace's pid 1, as stopping a container does.
  const unshare = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];
  const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  const name =
    'one runs, the other is refused with a message naming the holder; after the holder dies, a new one waits for its lease, then takes over';

  it.skipIf(!canUnshare)(
    canUnshare ? name : `${name} (skipped: unshare --pid needs util-linux and root here)`,
    async () => {
      const path = join(tempDir(), 'requests.lock');
      const first = lockChild(path, unshare);
      await first.waitFor(() => first.lines.includes('ready'));
      first.child.stdin.write('go\n');
      await first.waitFor(() => first.outcome() !== undefined);
      const owner = JSON.parse(readFileSync(join(path, 'owner.json'), 'utf8')) as { pid: number };
      // Inside its own namespace the holder is pid 1 (or near it): a pid check from here would be meaningless.
      expect(owner.pid).toBeLessThan(10);
      const second = lockChild(path, unshare);
      await second.waitFor(() => second.lines.includes('ready'));
      second.child.stdin.write('go\n');
      await second.waitFor(() => second.outcome() !== undefined);
      expect(second.outcome()).toBe('refused StoreLockedError');
      expect(second.lines.join('\n')).toMatch(new RegExp(`held by pid ${owner.pid} on .*alive`));
      second.child.stdin.end();
      await second.exited;
      first.child.kill('SIGKILL');
      await first.exited;
      // Restarted at once, as a container runtime would.
      const third = lockChild(path, unshare);
      await third.waitFor(() => third.lines.includes('ready'));
      // As renewed just before the kill: a loaded machine can take longer than the stale time to start a child.
      utimesSync(path, new Date(), new Date());
      third.child.stdin.write('go\n');
      await third.waitFor(() => third.outcome() !== undefined);
      expect(third.outcome()).toBe('got takeover');
      expect(third.lines.join('\n')).toMatch(/another machine, boot or container.*Waiting up to \d+ s/);
      third.child.stdin.end();
      await third.exited;
    },
    30_000,
  );
});

describe('stores reopened after a crash', () => {
  it('the audit log records the takeover in its own chain', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.jsonl');
    deadLease(`${file}.lock`, 10 * STALE_MS, 777);
    const log = await openAuditLog({ file, clock: { now: () => Date.UTC(2025, 0, 1) } });
    await log.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: 'store.lock_taken_over',
      actor: 'system',
      data: { pid: 777, reason: 'expired' },
    });
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
