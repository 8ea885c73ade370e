/**
 * Run as a separate process by lock.int.test.ts: a holder that keeps writing. Opens the key-value
 * store in argv[2] (leases stale after argv[3] ms), then every 200 ms sets `writer` to the next
 * number and prints `wrote <n>` once it is on disk. A lost lease stops it as it stops the bot
 * (exit 75, FATAL on stderr).
 */
import { openKeyValueStore } from '../../../../src/bot/store/kv.js';
import { setLockTiming } from '../../../../src/bot/store/lock.js';

const staleMs = Number(process.argv[3] ?? 2_000);
setLockTiming({ staleMs, updateMs: Math.floor(staleMs / 4) });
const kv = await openKeyValueStore({ dir: process.argv[2]! });
let n = 0;
const write = async () => {
  n += 1;
  await kv.set('writer', n);
  process.stdout.write(`wrote ${n}\n`);
  setTimeout(() => void write(), 200);
};
void write();
