/**
 * Step-up across two replicas on one PostgreSQL database, each with its own pool and store (nothing
 * in one process's memory serializes them): a code accepted on one is refused on the other, even
 * when both judge it at the same moment, and wrong codes spread over both lock both.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { LOCKOUT_MS, MAX_WRONG_CODES } from '../../../../src/bot/domain/step-up/attempts.js';
import { totpCode } from '../../../../src/bot/domain/step-up/totp.js';
import { createStepUps, type StepUpsDeps } from '../../../../src/bot/slack/step-up/step-ups.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { openPgStepUpStore } from '../../../../src/bot/store/postgres/step-up.js';
import { memoryAuditLog } from '../../../../src/bot/store/memory.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';

const KEY = new Uint8Array(randomBytes(32));
const USER = 'U0APP0001';

describePostgres('step-up on two replicas of one PostgreSQL database', () => {
  const pg = usePostgres();
  const open: Database[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  let now = 1_800_000_000_000;
  const clock = { now: () => now };

  async function replicas() {
    const url = await pg.cluster.createDatabase();
    const one = async () => {
      const db = await openDatabase({ url, warn: () => {}, maxConnections: 4 });
      open.push(db);
      const deps: StepUpsDeps = {
        store: openPgStepUpStore(db),
        key: KEY,
        clock,
        audit: memoryAuditLog(),
        // No reset here: nothing is queued.
        notices: { append: async () => {} },
        logger: { error: () => {} },
      };
      return createStepUps(deps);
    };
    return Promise.all([one(), one()]);
  }

  it('a code used on one replica is refused on the other, also when both judge it at once', async () => {
    const [a, b] = await replicas();
    const { secret } = await a.begin(USER, USER);
    expect(await a.confirm(USER, totpCode(secret, now), undefined)).toEqual({ ok: true });
    expect(await b.enrolled(USER)).toBe(true);
    // The enrolling code's step was used: the same code on the other replica is a replay.
    expect(await b.check(USER, totpCode(secret, now), 'R1')).toMatchObject({ kind: 'replayed' });
    for (let round = 1; round <= 5; round++) {
      now += 30_000;
      const code = totpCode(secret, now);
      const verdicts = await Promise.all([a.check(USER, code, 'R1'), b.check(USER, code, 'R2')]);
      expect(verdicts.map((v) => v.kind).sort(), `round ${round}`).toEqual(['accepted', 'replayed']);
    }
  });

  it(`${MAX_WRONG_CODES} wrong codes spread over both replicas lock both for 15 minutes`, async () => {
    const [a, b] = await replicas();
    const { secret } = await b.begin(USER, USER);
    expect(await b.confirm(USER, totpCode(secret, now), undefined)).toEqual({ ok: true });
    now += 30_000;
    const good = totpCode(secret, now);
    const wrong = good === '000000' ? '000001' : '000000';
    const verdicts = await Promise.all(
      Array.from({ length: MAX_WRONG_CODES }, (_, i) => (i % 2 ? a : b).check(USER, wrong, 'R1')),
    );
    expect(verdicts.map((v) => (v.kind === 'wrong' ? v.wrong : v.kind)).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await a.check(USER, good, 'R1')).toMatchObject({ kind: 'locked', lockedUntil: now + LOCKOUT_MS });
    expect(await b.check(USER, good, 'R1')).toMatchObject({ kind: 'locked' });
    now += LOCKOUT_MS;
    expect(await a.check(USER, totpCode(secret, now), 'R1')).toMatchObject({ kind: 'accepted' });
  });
});
