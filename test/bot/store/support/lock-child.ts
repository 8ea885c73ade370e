/**
 * Run as a separate process by lock.int.test.ts: says `ready`, waits for a line on stdin (so several
 * children try at the same instant), tries to take the lock at argv[2] (lease stale after argv[3]
 * ms), prints what the lock said while it tried (`warn …`), the outcome (and a refusal's message),
 * and holds a won lock until stdin closes.
 */
import { acquireLock, setLockTiming, type FileLock } from '../../../../src/bot/store/lock.js';

const staleMs = Number(process.argv[3] ?? 2_000);
setLockTiming({ staleMs, updateMs: Math.floor(staleMs / 4) });
let lock: FileLock | undefined;
const say = (line: string) => process.stdout.write(`${line.replace(/\n/g, ' ')}\n`);
process.stdin.once('data', () => {
  void (async () => {
    try {
      lock = await acquireLock(process.argv[2]!, { warn: (m) => say(`warn ${m}`) });
      say(`got ${lock.takenOver ? 'takeover' : 'fresh'}`);
    } catch (err) {
      say(`refused ${(err as Error).name}`);
      say((err as Error).message);
    }
  })();
});
process.stdin.on('end', () => {
  lock?.release();
  process.exit(0);
});
say('ready');
