/**
 * Run as a separate process by lock.test.ts: says `ready`, waits for a line on stdin (so several
 * children try at the same instant), tries to take the lock at argv[2] (lease stale after argv[3]
 * ms), prints the outcome (and a refusal's message), and holds a won lock until stdin closes.
 */
import { acquireLock, setLockTiming, type FileLock } from '../../../src/store/lock.js';

const staleMs = Number(process.argv[3] ?? 2_000);
setLockTiming({ staleMs, updateMs: Math.max(1_000, Math.floor(staleMs / 2)) });
let lock: FileLock | undefined;
process.stdin.once('data', () => {
  try {
    lock = acquireLock(process.argv[2]!);
    process.stdout.write(`got ${lock.takenOver ? 'takeover' : 'fresh'}\n`);
  } catch (err) {
    process.stdout.write(`refused ${(err as Error).name}\n${(err as Error).message}\n`);
  }
});
process.stdin.on('end', () => {
  lock?.release();
  process.exit(0);
});
process.stdout.write('ready\n');
