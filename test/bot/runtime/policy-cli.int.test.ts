// npm run policy -- explain on PostgreSQL: the limits' room left read from DATABASE_URL in one READ ONLY
// transaction (no migration, no write), the password never printed; a database never opened says so.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { runPolicyCli } from '../../../src/bot/runtime/policy-cli.js';
import { openDatabase } from '../../../src/bot/store/postgres/database.js';
import { openPgRepository } from '../../../src/bot/store/postgres/repository.js';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { NOW, REQUESTS, storeExecutedRequests } from './support/executed-requests.js';

const EXAMPLE = readFileSync(new URL('../../../policy.example.yaml', import.meta.url), 'utf8');

async function explain(url: string, amount: string) {
  let out = '';
  let err = '';
  const argv = ['explain', '--kind', 'crypto_withdrawal', '--asset', 'BTC', '--amount', amount];
  const code = await runPolicyCli(
    [...argv, '--requester', 'U0CCCCCC1', '--value', '120000 USD', 'policy.yaml'],
    { out: (t) => (out += t), err: (t) => (err += t) },
    { DATABASE_URL: url },
    () => EXAMPLE,
    () => NOW,
  );
  return { code, out, err };
}

describePostgres('npm run policy -- explain with DATABASE_URL', () => {
  const pg = usePostgres();

  it('reads the room left in a read-only transaction, while the bot holds the database, and changes nothing', async () => {
    const url = await pg.cluster.createDatabase();
    const db = await openDatabase({ url, warn: () => {}, maxConnections: 2 });
    const requests = await openPgRepository<RequestRecord>(db, REQUESTS);
    try {
      await storeExecutedRequests(requests);
      const rows = async () =>
        (await db.pool.query<{ body: unknown }>('SELECT body FROM records ORDER BY id')).rows.map((r) => r.body);
      const before = await rows();
      const fits = await explain(url, '2');
      expect(fits.code).toBe(0);
      expect(fits.out).toContain('this request counts 2 BTC; counted now 2.5 BTC, room left 2.5 BTC: it fits');
      const over = await explain(url, '3');
      expect(over.out).toContain('Refused now by a limit: daily BTC outflow');
      expect(over.out).not.toContain(new URL(url).password);
      expect(await rows()).toEqual(before);
    } finally {
      await requests.close();
      await db.close();
    }
  });

  it('a database the bot never opened: no tables made, one line, exit 0', async () => {
    const url = await pg.cluster.createDatabase();
    const r = await explain(url, '2');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Room left: not read \(no requests stored in PostgreSQL .*\); \/desk policy shows it\./);
    const check = await openDatabase({ url, warn: () => {} });
    try {
      // openDatabase migrated just now: the tool had not.
      expect(check.migrated.length).toBeGreaterThan(0);
    } finally {
      await check.close();
    }
  });
});
