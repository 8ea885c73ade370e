/**
 * `kill -9` of the bot and an immediate start on the same data folder, as systemd or a container
 * runtime restarts it: the real bot (src/main.ts, bundled, in its own process, configured only by
 * its environment), with production lease timing. The new life must start, taking over the killed
 * one's store leases at once (same host, boot and pid namespace, and its pid is gone), and say so.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_STALE_MS } from '../../src/bot/store/lock.js';
import { useBotWorld } from './support/bot-world.js';
import { isBotStarted, startChild } from './support/child-process.js';
import { DESK_PEOPLE } from './support/desk.js';
import { makeFaultKey } from './support/keys.js';

const key = makeFaultKey();
const BOT_TOKEN = 'xoxb-4242424242-1717171717-RestartBotTokenValue';
const SIGNING_SECRET = 'signing-secret-restart-0123456789ab';
const world = useBotWorld({ seed: 'restart', key, botToken: BOT_TOKEN });

function botEnv(): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: world.fake.apiUrl,
    PORT: '0',
    APPROVAL_CHANNEL_ID: 'C0APPROVE1',
    COMPLIANCE_CHANNEL_ID: 'C0COMPLY1',
    REQUESTER_USER_IDS: DESK_PEOPLE.requester,
    APPROVER_USER_IDS: DESK_PEOPLE.approvers.join(','),
    COMPLIANCE_USER_IDS: DESK_PEOPLE.approvers[0],
    EXCHANGE_BASE_URL: world.sandbox.url,
    EXCHANGE_PRIVATE_KEY: key.pem,
    DATA_DIR: world.dataDir,
  };
}

describe('a crash restart on the file store', () => {
  it("kill -9 and an immediate start: the new life starts, taking the dead one's leases over at once", async () => {
    const first = startChild(world.bundle, botEnv());
    expect(await first.waitFor(isBotStarted), first.stderr()).toBeDefined();
    first.kill();
    await first.exited;
    const restartedAt = Date.now();
    const second = startChild(world.bundle, botEnv());
    try {
      const started = await second.waitFor(isBotStarted);
      expect(started, `the restart did not start: ${second.stderr()}`).toBeDefined();
      // Long before the dead life's leases could have run out: nothing waited for them.
      expect(Date.now() - restartedAt).toBeLessThan(LOCK_STALE_MS);
      const takeovers = second.events.filter(
        (e) =>
          typeof e.msg === 'string' &&
          /took over a lock whose holder \(pid \d+ .*no longer runs on this machine/.test(e.msg),
      );
      expect(takeovers.map((e) => String(e.msg).split(':')[0])).toEqual(
        expect.arrayContaining([
          join(world.dataDir, 'requests.lock'),
          join(world.dataDir, 'kv.lock'),
          join(world.dataDir, 'audit.jsonl.lock'),
        ]),
      );
    } finally {
      second.kill();
      await second.exited;
    }
  }, 30_000);
});
