/**
 * The whole bot on the PostgreSQL store (openStores with a DATABASE_URL, as main.ts opens it):
 * a crypto withdrawal from /withdraw through two approvals to completed on the sandbox, its
 * messages delivered from the outbox, the record in history and the audit chain verified by
 * `npm run audit -- verify` against the database.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLogger } from '../../src/bot/runtime/logger.js';
import { openStores, type Stores } from '../../src/bot/runtime/stores.js';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import { runAuditCli } from '../../src/bot/store/audit-cli.js';
import { describePostgres, usePostgres } from '../support/postgres.js';
import { approvalMessage, buttonValue, startTestBot, threadTexts, USERS, type TestBot } from './support/test-bot.js';
import { click, requestCrypto } from './support/flows.js';

describePostgres('the bot on PostgreSQL', () => {
  const pg = usePostgres();
  let url: string;
  let d: TestBot<Stores>;
  beforeEach(async () => {
    url = await pg.cluster.createDatabase();
    d = await startTestBot({
      stores: (clock) =>
        openStores({ databaseUrl: url }, clock, [], createLogger({ level: 'error', secrets: [], write: () => {} })),
    });
  });
  afterEach(async () => {
    await d.stop();
  });

  it('takes a crypto withdrawal from /withdraw to completed, with one chain in the database', async () => {
    const { requestId } = await requestCrypto(d);
    const msg = approvalMessage(d.fake, requestId);
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    await d.runFor(80_000);
    await d.settle();

    expect((await d.bot.engine.get(requestId))?.state).toBe('completed');
    expect(d.sandbox.control.withdrawals().filter((w) => w.amount === '150.12')).toHaveLength(1);
    expect(await d.requests.listLive()).toEqual([]);
    expect((await d.requests.recentHistory(5)).map((r) => [r.id, r.state])).toEqual([[requestId, 'completed']]);
    expect(threadTexts(d.fake, msg.ts).some((t) => t.includes('Sent to the exchange'))).toBe(true);
    expect(await d.requests.outbox.pending()).toEqual([]);

    const out: string[] = [];
    expect(
      await runAuditCli(['verify'], { out: (t) => out.push(t), err: (t) => out.push(t) }, { DATABASE_URL: url }),
    ).toBe(0);
    expect(out.join('')).toMatch(
      /^PostgreSQL t\w+ on 127\.0\.0\.1:\d+ as postgres, table audit_log: ok, \d+ entries, last hash [0-9a-f]{64}\n$/,
    );
    expect(out.join('')).not.toContain(pg.cluster.password);
  });
});
