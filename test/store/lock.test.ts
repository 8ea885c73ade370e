/**
 * The store lock after a crash: a lock whose owner died on this host is taken over (a bot killed
 * by OOM or SIGKILL restarts by itself); a live owner, another host or an unreadable lock refuse;
 * starters racing for one stale lock end with exactly one owner.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openAuditLog, verifyAuditLog } from '../../src/store/audit-log.js';
import { StoreLockedError } from '../../src/store/errors.js';
import { openKeyValueStore } from '../../src/store/kv.js';
import { acquireLock } from '../../src/store/lock.js';
import { tempDir } from './support/temp.js';

/** A pid that ran on this host and has exited (and was reaped). */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;
const owner = (pid: number, host = hostname()) => JSON.stringify({ pid, host, since: '2025-01-01T00:00:00.000Z' }) + '\n';
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.includes('.stale-'));

describe('acquireLock after a crash', () => {
  it('takes over the lock of a dead pid on this host, says so, and holds it with its own pid', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    const pid = deadPid();
    writeFileSync(path, owner(pid));
    const warnings: string[] = [];
    const lock = acquireLock(path, { warn: (m) => warnings.push(m) });
    expect(lock.takenOver).toEqual({ pid, host: hostname(), since: '2025-01-01T00:00:00.000Z' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`pid ${pid}`);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    expect(leftovers(dir)).toEqual([]);
    expect(() => acquireLock(path)).toThrow(/already open in this process/);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('clears the debris of dead starters (unlinked lock contents, stale locks moved aside) when it takes over', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    const dead = deadPid();
    writeFileSync(path, owner(dead));
    writeFileSync(`${path}.${dead}.0a1b2c3d.tmp`, owner(dead));
    writeFileSync(`${path}.stale-${dead}-0a1b2c3d`, owner(dead));
    writeFileSync(`${path}.${process.ppid}.0a1b2c3d.tmp`, owner(process.ppid)); // a live starter's: kept
    const lock = acquireLock(path);
    expect(readdirSync(dir).sort()).toEqual(['x.lock', `x.lock.${process.ppid}.0a1b2c3d.tmp`]);
    lock.release();
  });

  it('takes over a lock carrying its own pid that it does not hold (pid reused after a crash, as pid 1 in containers)', () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, owner(process.pid));
    const lock = acquireLock(path);
    expect(lock.takenOver?.pid).toBe(process.pid);
    lock.release();
  });

  it('a fresh lock is not a takeover', () => {
    const lock = acquireLock(join(tempDir(), 'x.lock'));
    expect(lock.takenOver).toBeUndefined();
    lock.release();
  });

  const refusals: Array<[string, () => string, RegExp]> = [
    ['a running owner', () => owner(process.ppid), /That process is running/],
    ['an owner on another host', () => owner(deadPid(), 'some-other-host.invalid'), /another host/],
    ['an unreadable lock file', () => 'not json', /unknown process/],
    ['a lock without a pid', () => JSON.stringify({ host: hostname() }), /unknown process/],
  ];
  for (const [what, content, message] of refusals) {
    it(`refuses ${what} and leaves its lock file untouched`, () => {
      const dir = tempDir();
      const path = join(dir, 'x.lock');
      const text = content();
      writeFileSync(path, text);
      let error: unknown;
      try {
        acquireLock(path);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(StoreLockedError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(`delete ${path}`);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(leftovers(dir)).toEqual([]);
    });
  }

  it('four processes racing for one stale lock: exactly one ends up holding it, the others see a live owner', async () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    writeFileSync(path, owner(deadPid()));
    const script = fileURLToPath(new URL('./support/lock-child.ts', import.meta.url));
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', script, path], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const lines = children.map((c) => {
      const out: string[] = [];
      c.stdout!.setEncoding('utf8').on('data', (d: string) => out.push(...d.split('\n').filter(Boolean)));
      return out;
    });
    const waitFor = (pred: () => boolean) =>
      new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (pred()) {
            clearInterval(t);
            resolve();
          }
        }, 5);
      });
    await waitFor(() => lines.every((l) => l.includes('ready')));
    for (const c of children) c.stdin!.write('go\n');
    await waitFor(() => lines.every((l) => l.length >= 2));
    // The winner is whoever creates the lock once the stale one is gone (it may not be the one that removed it).
    const outcomes = lines.map((l) => l[1]!);
    expect(outcomes.filter((o) => o.startsWith('got'))).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'refused StoreLockedError')).toHaveLength(3);
    const winner = children[outcomes.findIndex((o) => o.startsWith('got'))]!;
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(winner.pid);
    expect(leftovers(dir)).toEqual([]);
    await Promise.all(children.map((c) => new Promise((r) => (c.on('exit', r), c.stdin!.end()))));
    expect(existsSync(path)).toBe(false);
  }, 20_000);
});

describe('stores reopened after a crash', () => {
  it('the audit log records the takeover in its own chain', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.jsonl');
    const pid = deadPid();
    writeFileSync(`${file}.lock`, owner(pid));
    const log = await openAuditLog({ file, clock: { now: () => Date.UTC(2025, 0, 1) } });
    await log.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'store.lock_taken_over', actor: 'system', data: { pid } });
    expect((await verifyAuditLog(file)).ok).toBe(true);
  });

  it('the key-value store opens over a dead owner\'s lock', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'kv.lock'), owner(deadPid()));
    const warnings: string[] = [];
    const kv = await openKeyValueStore({ dir, warn: (m) => warnings.push(m) });
    await kv.set('a', 1);
    expect(await kv.get('a')).toBe(1);
    await kv.close();
    expect(warnings).toHaveLength(1);
  });
});
