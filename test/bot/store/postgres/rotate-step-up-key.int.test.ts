/**
 * `npm run store -- rotate-step-up-key` on PostgreSQL: the step_up table re-sealed in one
 * transaction, codes keep counting under the new key, a second run changes nothing; a wrong old key
 * or a running bot (its leader's lock) change nothing. The URL's password and the keys never printed.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { totpCode } from '../../../../src/bot/domain/step-up/totp.js';
import { createStepUps } from '../../../../src/bot/slack/step-up/step-ups.js';
import { memoryAuditLog } from '../../../../src/bot/store/memory.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { DESK_LOCKS, LEADER_LOCK } from '../../../../src/bot/store/postgres/lock-keys.js';
import { openPgStepUpStore } from '../../../../src/bot/store/postgres/step-up.js';
import { runStoreCli } from '../../../../src/bot/store/store-cli.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { captureCliOutput } from '../support/cli-output.js';

const ENROLLED = 'U0APP0001';
const PENDING = 'U0APP0002';
const T0 = Date.parse('2026-11-01T00:00:00Z');

const io = captureCliOutput;

describePostgres('npm run store -- rotate-step-up-key, on PostgreSQL', () => {
  const pgc = usePostgres();
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  const stepUpsOn = (db: Database, key: Uint8Array, now: number) =>
    createStepUps({
      store: openPgStepUpStore(db),
      key,
      clock: { now: () => now },
      audit: memoryAuditLog(),
      notices: { append: async () => {} },
      logger: { error: () => {} },
    });

  async function rows(url: string): Promise<string> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ user_id: string; state: unknown }>(
        'SELECT user_id, state FROM step_up ORDER BY user_id',
      );
      return JSON.stringify(rows);
    } finally {
      await client.end();
    }
  }

  it('re-seals the table in one transaction; codes keep counting on the new key; refused on a wrong key or a running bot', async () => {
    const url = await pgc.cluster.createDatabase();
    const db = await openDatabase({ url, warn: () => {} });
    open.push(db);
    const before = stepUpsOn(db, oldKey, T0);
    const { secret } = await before.begin(ENROLLED, 'ana');
    expect(await before.confirm(ENROLLED, totpCode(secret, T0), undefined)).toEqual({ ok: true });
    await before.begin(PENDING, 'ben');
    // A first change's placeholder row, as a replica can leave for a moment: not a user state.
    await db.pool.query("INSERT INTO step_up (user_id, state) VALUES ('U0APP0009', 'null'::jsonb)");

    const env = { DATABASE_URL: url, STEP_UP_ENCRYPTION_KEY: oldKey.toString('hex') };
    const wrong = io();
    const unchanged = await rows(url);
    expect(
      await runStoreCli(['rotate-step-up-key'], wrong.io, {
        ...env,
        STEP_UP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        STEP_UP_ENCRYPTION_KEY_NEW: newKey.toString('hex'),
      }),
    ).toBe(1);
    expect(wrong.err.join('')).toMatch(/2 step-up secret\(s\) open with neither key/);
    expect(await rows(url)).toBe(unchanged);

    // A leader holds its lock: the bot runs.
    const leader = new pg.Client({ connectionString: url });
    await leader.connect();
    await leader.query('SELECT pg_advisory_lock($1, $2)', [DESK_LOCKS, LEADER_LOCK]);
    const running = io();
    const good = { ...env, STEP_UP_ENCRYPTION_KEY_NEW: newKey.toString('base64') };
    expect(await runStoreCli(['rotate-step-up-key'], running.io, good)).toBe(2);
    expect(running.err.join('')).toMatch(/a bot is running on .*stop every replica/);
    await leader.end();
    expect(await rows(url)).toBe(unchanged);

    const t = io();
    expect(await runStoreCli(['rotate-step-up-key'], t.io, good)).toBe(0);
    expect(t.out.join('')).toContain('  users              2\n  secrets re-sealed  2\n  already new        0\n');
    expect(t.text()).not.toContain(pgc.cluster.password);
    for (const k of [oldKey, newKey]) {
      expect(t.text()).not.toContain(k.toString('hex'));
      expect(t.text()).not.toContain(k.toString('base64'));
    }

    const later = T0 + 5 * 60_000;
    expect(await stepUpsOn(db, newKey, later).check(ENROLLED, totpCode(secret, later), 'R1')).toMatchObject({
      kind: 'accepted',
    });
    await expect(stepUpsOn(db, oldKey, later + 60_000).check(ENROLLED, '123456', 'R2')).rejects.toThrow(/did not open/);

    const again = io();
    expect(await runStoreCli(['rotate-step-up-key'], again.io, good)).toBe(0);
    expect(again.out.join('')).toContain('  secrets re-sealed  0\n  already new        2\n');
  });
});
