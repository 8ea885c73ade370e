import { describe, expect, it } from 'vitest';
import { startTestSandbox, V1 } from './support/sandbox.js';

const snapshot = async (seed: string) => {
  const t = await startTestSandbox({ seed });
  try {
    const read = async (path: string) => (await t.api('GET', `${V1}${path}`)).body;
    return {
      networks: await read('/crypto_currency_networks'),
      book: await read('/address_book/addresses?page[size]=50'),
      deposits: await read('/crypto/deposits?page[size]=50'),
      withdrawals: await read('/crypto/withdrawals?page[size]=50'),
      wallets: await read('/crypto_wallets'),
      banks: await read('/bank_accounts?page[size]=50'),
    };
  } finally {
    await t.close();
  }
};

describe('seeded state', () => {
  it('is the same for the same seed and different for another', async () => {
    const a = await snapshot('alpha');
    expect(await snapshot('alpha')).toEqual(a);
    const b = await snapshot('beta');
    expect(b.book.map((x: { id: string }) => x.id)).not.toEqual(a.book.map((x: { id: string }) => x.id));
    // Same shape whatever the seed.
    expect(b.book.map((x: { label: string }) => x.label)).toEqual(a.book.map((x: { label: string }) => x.label));
  });

  it('replays requests identically: ids made while serving come from the seed too', async () => {
    const run = async () => {
      const t = await startTestSandbox({ seed: 'replay' });
      try {
        const book = (await t.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as Array<{
          id: string;
          label: string;
        }>;
        const w = await t.api('POST', `${V1}/crypto/withdrawals`, {
          body: {
            crypto_currency_id: 101,
            amount: '0.2',
            address_book_address_id: book.find((a) => a.label === 'Treasury cold storage')!.id,
          },
        });
        t.sandbox.control.advance(20_000);
        return [w.body.id, (await t.api('GET', `${V1}/crypto/withdrawals/${w.body.id}`)).body.transaction_hash];
      } finally {
        await t.close();
      }
    };
    expect(await run()).toEqual(await run());
  });
});
