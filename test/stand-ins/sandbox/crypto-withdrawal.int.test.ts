import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, sub } from '../../../src/bot/domain/money.js';
import { cryptoCurrencyEntry, cryptoWithdrawal, type AddressBookAddress } from '../../../src/bot/exchange/schemas.js';
import { makeKey } from './support/sign.js';
import { ALL_SCOPES, expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
let book: AddressBookAddress[];
const other = makeKey();
beforeAll(async () => {
  t = await startTestSandbox({
    extraKeys: [{ publicKeyHex: other.compressedHex, scopes: ALL_SCOPES, account: 'other' }],
  });
  book = (await t.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body;
});
afterAll(() => t.close());

const byLabel = (label: string) => book.find((a) => a.label === label)!.id;
const create = (body: Record<string, unknown>, key = t.key) => t.api('POST', `${V1}/crypto/withdrawals`, { body, key });
const regular = async (currency: string) =>
  (await t.api('GET', `${V1}/accounts/balances?currency=${currency}`)).body[0]?.regular ?? '0';

describe('creating a crypto withdrawal', () => {
  it('rounds the amount down to the entry precision, adds the fee and moves amount plus fee out of regular', async () => {
    const entries = (await t.api('GET', `${V1}/crypto_currencies`)).body.map((x: unknown) =>
      expectSchema(cryptoCurrencyEntry, x),
    );
    const trc20 = entries.find((e: { id: number }) => e.id === 104)!;
    expect(trc20.precision).toBe(2);
    const before = await regular('USDT');
    const a = await create({
      crypto_currency_id: 104,
      amount: '100.129',
      address_book_address_id: byLabel('OTC partner (TRC20)'),
    });
    expect(a.status).toBe(201);
    const w = expectSchema(cryptoWithdrawal, a.body);
    expect(w.amount).toBe('100.12');
    expect(w.fee).toBe(trc20.withdrawal_fee);
    expect(w.total_amount).toBe(add('100.12', trc20.withdrawal_fee));
    expect(w.crypto_currency.id).toBe(104);
    expect(await regular('USDT')).toBe(sub(before, w.total_amount));
    const btc = await create({
      crypto_currency_id: 101,
      amount: '0.123456789',
      address_book_address_id: byLabel('Treasury cold storage'),
    });
    expect(btc.body.amount).toBe('0.12345678');
  });

  it('needs amount plus fee within the regular balance (422 that says so)', async () => {
    t.sandbox.control.setBalance({ currency: 'ETH', regular: '1' });
    // The amount alone fits; with the 0.003 fee it does not.
    const a = await create({
      crypto_currency_id: 102,
      amount: '0.999',
      address_book_address_id: byLabel('OTC partner (ERC20)'),
    });
    expect(a.status).toBe(422);
    expect(a.body.errors[0].message).toMatch(
      /Insufficient balance: amount plus fee is 1.002 ETH but only 1 ETH is available/,
    );
    expect(
      (
        await create({
          crypto_currency_id: 102,
          amount: '0.997',
          address_book_address_id: byLabel('OTC partner (ERC20)'),
        })
      ).status,
    ).toBe(201);
    expect(await regular('ETH')).toBe('0');
  });

  it("refuses an address that is not this account's with 404", async () => {
    const a = await create(
      { crypto_currency_id: 101, amount: '0.01', address_book_address_id: byLabel('Treasury cold storage') },
      other,
    );
    expect(a.status).toBe(404);
    expect(a.body.errors[0].message).toBe('Address not found');
    expect(
      (
        await create({
          crypto_currency_id: 101,
          amount: '0.01',
          address_book_address_id: '00000000-0000-4000-8000-000000000000',
        })
      ).status,
    ).toBe(404);
  });

  it('refuses an address in its withdrawal cooldown, an unverified one and one without recipient details (422)', async () => {
    const cooldown = await create({
      crypto_currency_id: 102,
      amount: '0.1',
      address_book_address_id: byLabel('New exchange account'),
    });
    expect(cooldown.status).toBe(422);
    expect(cooldown.body.errors[0].message).toMatch(/withdrawal cooldown until/);
    const unverified = await create({
      crypto_currency_id: 101,
      amount: '0.01',
      address_book_address_id: byLabel('Personal wallet (unverified)'),
    });
    expect(unverified.status).toBe(422);
    expect(unverified.body.errors[0].message).toMatch(/not verified/);
    const noRecipient = await create({
      crypto_currency_id: 103,
      amount: '50',
      address_book_address_id: byLabel('Vendor without recipient details'),
    });
    expect(noRecipient.status).toBe(422);
    expect(noRecipient.body.errors[0].message).toMatch(/Recipient information missing/);
  });

  it('accepts the cooldown address once its cooldown has finished (sandbox clock)', async () => {
    const addr = book.find((a) => a.label === 'New exchange account')!;
    t.sandbox.control.advance(addr.withdrawal_cooldown_until! - t.sandbox.control.now() + 1);
    t.sandbox.control.setBalance({ currency: 'ETH', regular: '10' });
    expect((await create({ crypto_currency_id: 102, amount: '0.1', address_book_address_id: addr.id })).status).toBe(
      201,
    );
  });

  it('refuses an unknown currency id, a network the address is not on, and an amount below the minimum (422)', async () => {
    const unknown = await create({
      crypto_currency_id: 999,
      amount: '1',
      address_book_address_id: byLabel('OTC partner (ERC20)'),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].message).toMatch(/Unknown crypto_currency_id 999/);
    // USDT on Tron to an Ethereum address: same asset, other network entry.
    const wrongNet = await create({
      crypto_currency_id: 104,
      amount: '50',
      address_book_address_id: byLabel('OTC partner (ERC20)'),
    });
    expect(wrongNet.status).toBe(422);
    expect(wrongNet.body.errors[0].message).toMatch(/not on the Tron/);
    const tiny = await create({
      crypto_currency_id: 101,
      amount: '0.000000001',
      address_book_address_id: byLabel('Treasury cold storage'),
    });
    expect(tiny.status).toBe(422);
    expect(tiny.body.errors[0].message).toMatch(/below the minimum withdrawal/);
  });

  it('refuses bodies that break the schema, including nested recipient fields', async () => {
    const nested = await create({
      crypto_currency_id: 101,
      amount: '0.01',
      address_book_address_id: byLabel('Treasury cold storage'),
      wallet_identity_attributes: { entity_type: 'individual' },
    });
    expect(nested.status).toBe(422);
    expect(nested.body.errors[0].message).toMatch(/wallet_identity_attributes/);
    expect(
      (
        await create({
          crypto_currency_id: '101',
          amount: '0.01',
          address_book_address_id: byLabel('Treasury cold storage'),
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await create({
          crypto_currency_id: 101,
          amount: 0.01,
          address_book_address_id: byLabel('Treasury cold storage'),
        })
      ).status,
    ).toBe(422);
  });

  it('stores request_id but does not deduplicate on it (the reference says not to rely on it), nor list it (its records do not show it)', async () => {
    const body = {
      crypto_currency_id: 101,
      amount: '0.01',
      address_book_address_id: byLabel('Treasury cold storage'),
      request_id: 'same-id',
    };
    const a = await create(body);
    const b = await create(body);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body).not.toHaveProperty('request_id');
    expect(t.sandbox.control.withdrawals().filter((w) => w.request_id === 'same-id')).toHaveLength(2);
  });

  it('keeps the note it was sent, in the create answer and the list; the drop_notes fault makes one keep none', async () => {
    const body = {
      crypto_currency_id: 101,
      amount: '0.01',
      address_book_address_id: byLabel('Treasury cold storage'),
      note: 'Payroll · desk R6EYET-1',
    };
    const a = await create(body);
    expect(a.body.note).toBe('Payroll · desk R6EYET-1');
    t.sandbox.control.addFault({ kind: 'drop_notes', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    const b = await create(body);
    expect(b.status).toBe(201);
    expect(b.body.note).toBeNull();
    const listed = (await t.api('GET', `${V1}/crypto/withdrawals?page[size]=10`)).body as {
      id: string;
      note: string | null;
    }[];
    expect(listed.find((w) => w.id === a.body.id)?.note).toBe('Payroll · desk R6EYET-1');
    expect(listed.find((w) => w.id === b.body.id)?.note).toBeNull();
  });
});
