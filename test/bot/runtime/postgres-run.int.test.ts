/**
 * The real bot (runBot, configured by its environment) on PostgreSQL: DATABASE_URL selects the
 * database store (its schema created at start), the start-up line names the database without its
 * password, a restart of PostgreSQL under the running bot is logged and lived through (it leads
 * again, its store answers), and no log
 * line ever carries the password. With DATABASE_URL and no shared exchange the bot refuses to start
 * unless SINGLE_REPLICA=true.
 */
import { afterEach, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { runBot, type RunningBot } from '../../../src/bot/runtime/run-bot.js';
import { APPROVAL_CHANNEL, BOT_TOKEN, SIGNING_SECRET } from '../slack/support/harness.js';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { until } from '../../support/until.js';
import { startSandbox } from '../../../src/stand-ins/sandbox/index.js';

describePostgres('the bot with DATABASE_URL', () => {
  // A cluster of its own: a test here restarts PostgreSQL, and other files use the run's shared one meanwhile.
  const pg = usePostgres({ own: true });
  let desk: RunningBot | undefined;
  let fake: FakeSlackApi | undefined;
  afterEach(async () => {
    await desk?.stop();
    await fake?.stop();
    desk = undefined;
    fake = undefined;
  });

  const env = (url: string, extra: Record<string, string> = {}) => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake!.apiUrl,
    APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
    REQUESTER_USER_IDS: 'U0REQ0001',
    APPROVER_USER_IDS: 'U0APP0001,U0APP0002',
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    ...extra,
  });

  it('runs on the database, names it without the password, and lives through a PostgreSQL restart', async () => {
    fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
    const url = await pg.cluster.createDatabase();
    const logs: string[] = [];
    desk = await runBot(loadConfig(env(url, { SINGLE_REPLICA: 'true' })), {
      startSandbox,
      receiverOptions: { port: 0, retryConfig: { retries: 0 } },
      logWrite: (l) => void logs.push(l),
      tickMs: 50,
    });
    const started = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'desk bot started');
    expect(started?.store).toBe(`PostgreSQL ${url.split('/').pop()} on 127.0.0.1:${pg.cluster.port} as postgres`);
    expect(logs.some((l) => l.includes('database schema migrated'))).toBe(true);

    await pg.cluster.restart();
    // Every session ended: the leader's lock with it. The bot steps down, says so, and leads again.
    await until('the bot to lead again', () =>
      logs.some((l) => l.includes('leadership: the database session')) && desk!.leadership.isLeader()
        ? true
        : undefined,
    );
    expect(await desk.engine.get('R0NOTHERE')).toBeUndefined();
    // A tick that ran while the server was down failed and said so; once it leads again, none does.
    const back = logs.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(logs.slice(back).filter((l) => /"level":"error"/.test(l))).toEqual([]);
    await desk.stop();
    desk = undefined;
    expect(logs.join('\n')).not.toContain(pg.cluster.password);
  });

  it('refuses the embedded sandbox with DATABASE_URL unless SINGLE_REPLICA=true', async () => {
    fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
    expect(() => loadConfig(env(pg.cluster.url('any')))).toThrow(ConfigError);
    expect(() => loadConfig(env(pg.cluster.url('any')))).toThrow(
      /DATABASE_URL: is set, so replicas may share this database, but EXCHANGE_BASE_URL is unset/,
    );
  });
});
