/**
 * Thousands of generated modal submissions and command texts (fast-check). Each one is either a
 * clear field error or a valid request; nothing throws; no text the builders make from it carries
 * a control sequence Slack would act on (`<!channel>`, `<@U…>`, `<http…|…>`); amounts stay the
 * exact decimal that was typed (compared with big.js), never a float.
 *
 * Forms are fed the seeded sandbox's real data, read through the real client, with hostile labels
 * planted on the exchange side too (a destination and a bank account named with mentions).
 * Commands go through the real command listeners with a recording Slack client.
 */
import { createExchangeListings } from '../../src/bot/exchange/adapter/listings.js';
import { composeBot } from '../../src/bot/runtime/compose.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../src/bot/store/memory.js';
import { keyValueStepUpStore } from '../../src/bot/store/step-up.js';
import Big from 'big.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDeclaration, DECLARATION_FIELDS } from '../../src/bot/engine/compliance/declaration.js';
import { createExchangePort } from '../../src/bot/exchange/adapter/index.js';
import type { CurrencyEntry, SavedAddress, SavedBankAccount, ExchangePort } from '../../src/bot/ports/exchange-port.js';
import { loadConfig } from '../../src/bot/config/index.js';
import { createPolicy } from '../../src/bot/domain/policy.js';
import { isFinishedRequest, newRequest, type RequestRecord } from '../../src/bot/domain/record.js';
import { buildCryptoWithdrawal, buildFiatWithdrawal, buildTrade, type Snapshot } from '../../src/bot/domain/request.js';
import { createExchangeClient } from '../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../src/bot/exchange/signer.js';
import { startSandbox, type Sandbox } from '../../src/stand-ins/sandbox/index.js';
import { approvalMessageFor, statusMessageFor } from '../../src/bot/slack/approvals/from-record.js';
import type { SlackContext } from '../../src/bot/slack/kit/slack-context.js';
import {
  loadCryptoForm,
  loadFiatForm,
  type CryptoFormData,
  type FiatFormData,
} from '../../src/bot/slack/withdrawals/withdraw-data.js';
import {
  checkCryptoSubmission,
  checkFiatSubmission,
  renderWithdrawForm,
} from '../../src/bot/slack/withdrawals/withdraw-form.js';
import {
  checkTradeSubmission,
  quoteTerms,
  renderTradeForm,
  termsKey,
  tradeState,
  type TradeMeta,
} from '../../src/bot/slack/trades/trade-form.js';
import { dynamicBlockId, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { COMMAND_LISTENERS } from '../../src/bot/slack/shell/registrations.js';
import { checkAmount } from '../../src/bot/domain/amount.js';
import type { StateValues } from '../../src/bot/slack/kit/view-state.js';
import { makeFaultKey } from './support/keys.js';
import { unsafeSequences } from './support/mrkdwn-scan.js';

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 1_500);
const PEOPLE = {
  requester: 'U0REQ0001',
  approver: 'U0APP0001',
  approver2: 'U0APP0002',
  compliance: 'U0CMP0001',
  outsider: 'U0OUT0001',
} as const;
/** The desk's people may be mentioned, and the exchange's own explorer links linked (filled in beforeAll). */
const ALLOW = { userIds: Object.values(PEOPLE) as string[], urls: [] as string[] };
const HOSTILE_LABEL = '<!channel> Treasury <@U0BOSS001> *cold* <http://evil.example|click>';
const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);

// ---- arbitraries --------------------------------------------------------------------------------

/** Control sequences, formatting and odd characters a person (or an attacker) could type. */
const SNIPPETS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U024BE7LH>',
  '<#C024BE7LR>',
  '<!subteam^S0123|@ops>',
  '<http://evil.example|Open me>',
  '<https://x.example>',
  '<mailto:a@b.c|mail>',
  '&lt;!channel&gt;',
  '&amp;',
  '<',
  '>',
  '&',
  '*bold*',
  '_it_',
  '~s~',
  '`x`',
  '```',
  '\n',
  '\u202e',
  '\u0000',
  '😀',
  'e',
  '%',
  ' ',
];
const hostileText = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .array(fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 6 })), { maxLength: 8 })
    .map((parts) => parts.join('')),
  fc.constant('x'.repeat(3_000)),
);
/** Things typed into an amount field: good decimals, near misses, and junk. */
const amountText = fc.oneof(
  fc.stringMatching(/^\d{1,12}(\.\d{0,10})?$/),
  fc.stringMatching(/^\s*\.?\d{0,6}\.?\d{0,12}\s*$/),
  fc.constantFrom(
    '1e3',
    '1E-2',
    '-5',
    '+5',
    '0x10',
    '1,000',
    '1,000.50',
    '12,5',
    'NaN',
    'Infinity',
    '.',
    '..',
    '1.2.3',
    '١٢٣',
    '１２',
    '0',
    '0.000',
    '00012.5000',
    '9'.repeat(40),
    `0.${'0'.repeat(30)}1`,
    '1_000',
    '½',
  ),
  fc.array(fc.constantFrom(...'0123456789.,-+eE x٫'), { maxLength: 14 }).map((c) => c.join('')),
  hostileText,
);

/** Amounts a person would plausibly type (many valid), mixed with everything else. */
const fieldAmount = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^(0|[1-9]\d{0,2})(\.\d{1,4})?$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[1-9]\d{1,4}(\.\d{1,2})?$/) },
  { weight: 2, arbitrary: amountText },
);
/** Mostly one of the form's own options (what Slack sends), sometimes anything (a forged payload). */
const mostly = <T>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: other });
/** Usually nothing, once in a while `arb`. */
const seldom = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const text = (value: string | null) => ({ type: 'plain_text_input', value });
const select = (value: string | null) => ({
  type: 'static_select',
  selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
});

/** A form offers only entries with a precision (withdraw-data.ts). */
function withPrecision(entry: CurrencyEntry): CurrencyEntry & { precision: number } {
  if (entry.precision === null) throw new Error(`entry ${entry.id} has no precision`);
  return { ...entry, precision: entry.precision };
}

// ---- the world ------------------------------------------------------------------------------------

let sandbox: Sandbox;
let exchange: ExchangePort;
let entries: CurrencyEntry[];
let addresses: SavedAddress[];
let banks: SavedBankAccount[];
let crypto: CryptoFormData;
let fiat: FiatFormData;
let slack: SlackContext;

beforeAll(async () => {
  const key = makeFaultKey();
  sandbox = await startSandbox({
    seed: 'bad-input',
    keys: [{ publicKeyHex: key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
  });
  const account = sandbox.state.accounts.get('main')!;
  // The exchange side is user-typed too: labels and names come from people in the mobile app.
  account.addressBook.find((a) => a.label === 'OTC partner (TRC20)')!.label = HOSTILE_LABEL;
  account.bankAccounts[0]!.beneficiary_name = 'ACME <!here> <@U0BOSS001>';
  const api = createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(parsePrivateKey(key.hex)),
    rateLimit: false,
  });
  exchange = createExchangePort(api);
  entries = await exchange.currencyEntries();
  addresses = [];
  for await (const a of exchange.savedAddresses({ pageSize: 100 })) addresses.push(a);
  banks = [];
  for await (const b of exchange.bankAccounts(undefined, { pageSize: 100 })) banks.push(b);
  for (const r of [...sandbox.control.withdrawals(), ...sandbox.control.deposits()])
    if (r.link_explorer) ALLOW.urls.push(r.link_explorer);
  crypto = await loadCryptoForm(exchange);
  fiat = await loadFiatForm(exchange);
  const config = loadConfig({
    SLACK_BOT_TOKEN: 'xoxb-bad-input-000000000-TOKEN',
    SLACK_SIGNING_SECRET: 'bad-input-signing-secret-0123456789',
    SLACK_API_URL: 'http://127.0.0.1:9/api/',
    APPROVAL_CHANNEL_ID: 'C0APPROVE1',
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver},${PEOPLE.approver2}`,
    COMPLIANCE_USER_IDS: PEOPLE.compliance,
    LOG_LEVEL: 'error',
  });
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  slack = composeBot({
    config,
    clock: { now: () => Date.now(), sleep: async () => {} },
    exchange,
    listings: createExchangeListings(api),
    requests: memoryRepository<RequestRecord>(isFinishedRequest),
    kv: memoryKv(),
    audit: memoryAuditLog(),
    stepUp: keyValueStepUpStore(memoryKv()),
    logger: () => quiet,
    tradePairs: ['BTC-USD', 'ETH-SGD', 'USDT-SGD'],
  }).slack.context;
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
});

const policy = createPolicy({ requesters: [PEOPLE.requester], approvers: [PEOPLE.approver, PEOPLE.approver2] });

/** The approval message and the status answer for a request with this snapshot: both must be safe. */
function messagesFor(snapshot: Snapshot) {
  const record = newRequest({ id: 'R2345A', requester: PEOPLE.requester, snapshot, now: NOW, policy });
  return [approvalMessageFor(record, true), statusMessageFor(record, true)];
}

/** Field errors: a non-empty plain sentence per field, none carrying a control sequence. */
function expectClearErrors(errors: Record<string, string>, knownBlocks: (id: string) => boolean): void {
  const keys = Object.keys(errors);
  expect(keys.length).toBeGreaterThan(0);
  for (const k of keys) {
    expect(knownBlocks(k), `error under unknown block ${k}`).toBe(true);
    expect(errors[k]!.trim().length).toBeGreaterThan(0);
    expect(unsafeSequences({ text: errors[k] }), errors[k]).toEqual([]);
  }
}

/** A property that only ever refused (or only accepted) would prove little: both branches must be well visited. */
function expectBothBranches(errors: number, built: number): void {
  expect(errors, 'submissions refused').toBeGreaterThan(RUNS / 20);
  expect(built, 'submissions that became requests').toBeGreaterThan(RUNS / 20);
}

const isInput = (prefixes: string[]) => (id: string) => prefixes.some((p) => id === p || id.startsWith(`${p}:`));

/** The typed text read as a decimal exactly as a person means it, or undefined when it is not one. */
function typedDecimal(t: string): Big | undefined {
  const s = t.trim();
  if (!/^\d*\.?\d*$/.test(s) || !/\d/.test(s)) return undefined;
  return new Big(s.startsWith('.') ? `0${s}` : s.endsWith('.') ? s.slice(0, -1) : s);
}

// ---- properties -----------------------------------------------------------------------------------

describe('the scanner these properties rely on', () => {
  it('finds control sequences in mrkdwn and fallback text, and ignores plain text and the allowed ones', () => {
    const payload = {
      text: 'hi <!here>',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'a <@U0BAD0001> b &lt;!channel&gt; <@U0REQ0001>' },
          fields: [{ type: 'mrkdwn', text: '<http://evil|x>' }],
        },
        { type: 'header', text: { type: 'plain_text', text: '<!channel>' } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: '<!date^1700000000^{date_short}|Nov 14>' }] },
      ],
    };
    expect(unsafeSequences(payload, { userIds: ['U0REQ0001'] })).toEqual([
      '<!here>',
      '<@U0BAD0001>',
      '<http://evil|x>',
    ]);
  });
});

describe('amounts typed into any amount field', () => {
  it('are refused with a sentence, or kept as the exact decimal typed (no float, no exponent), with an exact total', () => {
    fc.assert(
      fc.property(
        amountText,
        fc.integer({ min: 0, max: 18 }),
        fc.stringMatching(/^\d{1,4}(\.\d{1,8})?$/),
        (typed, precision, fee) => {
          const r = checkAmount(typed, { currency: 'BTC', precision, fee, available: '1000000000000' });
          if (!r.ok) {
            expect(r.error.trim().length).toBeGreaterThan(0);
            expect(unsafeSequences({ text: r.error })).toEqual([]);
            return;
          }
          expect(r.amount).toMatch(/^\d+(\.\d+)?$/);
          const meant = typedDecimal(typed);
          expect(meant, `accepted ${JSON.stringify(typed)}`).toBeDefined();
          expect(new Big(r.amount).eq(meant!)).toBe(true);
          expect(new Big(r.total).eq(new Big(r.amount).plus(fee))).toBe(true);
          expect(r.amount.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(precision);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});

describe('crypto withdrawal form submissions', () => {
  it('are a field error or an exact request whose approval message and re-rendered form are safe', () => {
    const entryIds = crypto.entries.map((e) => String(e.id));
    const submission = fc.record({
      entry: mostly(fc.constantFrom(...entryIds), fc.oneof(fc.constant(null), hostileText)),
      destinationPick: fc.nat(),
      destinationJunk: seldom(hostileText),
      amount: fieldAmount,
      note: fc.option(hostileText, { nil: null }),
      purpose: fc.option(hostileText, { nil: null }),
    });
    const tally = { errors: 0, built: 0 };
    fc.assert(
      fc.property(submission, (s) => {
        const entry = crypto.entries.find((e) => String(e.id) === s.entry);
        const destinations = entry ? (crypto.destinations[entry.id] ?? []) : [];
        const destinationId =
          s.destinationJunk ?? destinations[s.destinationPick % Math.max(1, destinations.length)]?.id ?? null;
        const values: StateValues = {
          [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: select(s.entry) },
          ...(entry
            ? { [dynamicBlockId.withdrawDestination(entry.id)]: { [INPUT.withdrawDestination]: select(destinationId) } }
            : {}),
          [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: text(s.amount) },
          [INPUT.withdrawNote]: { [INPUT.withdrawNote]: text(s.note) },
          [INPUT.withdrawPurpose]: { [INPUT.withdrawPurpose]: text(s.purpose) },
        };
        const form = renderWithdrawForm(crypto, values, { now: NOW, sandbox: true, privateMetadata: '{}' });
        expect(unsafeSequences(form, ALLOW)).toEqual([]);
        const checked = checkCryptoSubmission(crypto, values, NOW);
        if (!checked.ok) {
          tally.errors++;
          if (process.env.BAD_INPUT_DEBUG)
            for (const [k, v] of Object.entries(checked.errors)) console.log('crypto', k, v.slice(0, 50));
          return expectClearErrors(
            checked.errors,
            isInput([
              INPUT.withdrawEntry,
              INPUT.withdrawDestination,
              INPUT.withdrawAmount,
              INPUT.withdrawNote,
              INPUT.withdrawPurpose,
            ]),
          );
        }
        const c = checked.value;
        expect(new Big(c.amount).eq(typedDecimal(s.amount)!)).toBe(true);
        const built = buildCryptoWithdrawal(
          withPrecision(entries.find((e) => e.id === c.cryptoCurrencyId)!),
          addresses.find((a) => a.id === c.destinationId)!,
          { amount: c.amount, note: c.note ?? null, purpose: c.purpose ?? null },
        );
        if (!built.ok) {
          if (process.env.BAD_INPUT_DEBUG) console.log('crypto built', built.field, built.message.slice(0, 50));
          expect(built.message.trim().length).toBeGreaterThan(0);
          return;
        }
        expect(built.value.amount).toBe(c.amount);
        expect(new Big(built.value.total).eq(new Big(c.amount).plus(built.value.fee))).toBe(true);
        for (const m of messagesFor(built.value)) expect(unsafeSequences(m, ALLOW)).toEqual([]);
        tally.built++;
      }),
      { numRuns: RUNS },
    );
    expectBothBranches(tally.errors, tally.built);
  });
});

describe('fiat withdrawal form submissions', () => {
  it('are a field error or an exact request whose approval message is safe', () => {
    const currencies = fiat.currencies.map((c) => c.currency);
    const tally = { errors: 0, built: 0 };
    fc.assert(
      fc.property(
        fc.record({
          currency: mostly(fc.constantFrom(...currencies), hostileText),
          bankPick: fc.nat(),
          bankJunk: seldom(hostileText),
          amount: fieldAmount,
        }),
        (s) => {
          const currency = fiat.currencies.find((c) => c.currency === s.currency);
          const options = currency ? (fiat.banks[currency.currency] ?? []) : [];
          const bank = s.bankJunk ?? (options.length ? String(options[s.bankPick % options.length]!.id) : null);
          const values: StateValues = {
            [INPUT.fiatCurrency]: { [INPUT.fiatCurrency]: select(s.currency) },
            ...(currency ? { [dynamicBlockId.fiatBank(currency.currency)]: { [INPUT.fiatBank]: select(bank) } } : {}),
            [INPUT.fiatAmount]: { [INPUT.fiatAmount]: text(s.amount) },
          };
          expect(
            unsafeSequences(
              renderWithdrawForm(fiat, values, { now: NOW, sandbox: true, privateMetadata: '{}' }),
              ALLOW,
            ),
          ).toEqual([]);
          const checked = checkFiatSubmission(fiat, values);
          if (!checked.ok) {
            tally.errors++;
            return expectClearErrors(checked.errors, isInput([INPUT.fiatCurrency, INPUT.fiatBank, INPUT.fiatAmount]));
          }
          const c = checked.value;
          expect(new Big(c.amount).eq(typedDecimal(s.amount)!)).toBe(true);
          const rules = fiat.currencies.find((x) => x.currency === c.currency)!;
          const account = banks.find((b) => b.id === c.bankAccountId)!;
          const built = buildFiatWithdrawal(
            {
              currency: c.currency,
              fee: rules.fee,
              minimum: rules.minimum,
              maximum: rules.maximum,
              bankAccount: account,
            },
            { amount: c.amount },
          );
          expect(built.ok).toBe(true);
          if (built.ok) for (const m of messagesFor(built.value)) expect(unsafeSequences(m, ALLOW)).toEqual([]);
          tally.built++;
        },
      ),
      { numRuns: RUNS },
    );
    expectBothBranches(tally.errors, tally.built);
  });
});

describe('trade form submissions', () => {
  it('are a field error or an exact request (quantity and limit exact decimals) whose approval message is safe', () => {
    const pairs = slack.deps.tradePairs;
    const submission = fc.record({
      pair: mostly(fc.constantFrom(...pairs, 'btc/usd', 'ethsgd', 'BTC USD', ' eth - sgd '), hostileText),
      side: fc.constantFrom('buy', 'sell', 'junk'),
      quantity: fieldAmount,
      quantityIn: fc.constantFrom('base', 'counter'),
      // A static select: Slack sends one of its option values (up to 150 characters), or a forged short one.
      paymentMethod: fc.oneof(
        fc.constant('user_balance'),
        hostileText.map((t) => t.slice(0, 150)),
      ),
      // Usually one of the two ways to give the worst price, sometimes both or neither.
      bound: fc.oneof(
        { weight: 4, arbitrary: fieldAmount.map((limit) => ({ limit, slippage: null as string | null })) },
        {
          weight: 4,
          arbitrary: mostly(fc.stringMatching(/^\d{0,2}(\.\d{0,3})?\s?%?$/), hostileText).map((slippage) => ({
            limit: null as string | null,
            slippage,
          })),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            limit: fc.option(fieldAmount, { nil: null }),
            slippage: fc.option(hostileText, { nil: null }),
          }),
        },
      ),
      price: fc.stringMatching(/^[1-9]\d{0,5}(\.\d{1,6})?$/),
      quoted: fc.boolean(),
      note: fc.option(hostileText, { nil: null }),
    });
    const tally = { errors: 0, built: 0 };
    fc.assert(
      fc.property(submission, (s) => {
        const values: StateValues = {
          [INPUT.tradePair]: { [INPUT.tradePair]: text(s.pair) },
          [INPUT.tradeSide]: { [INPUT.tradeSide]: select(s.side) },
          [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: text(s.quantity) },
          [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: select(s.quantityIn) },
          [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: select(s.paymentMethod) },
          [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: text(s.bound.limit) },
          [INPUT.tradeSlippage]: { [INPUT.tradeSlippage]: text(s.bound.slippage) },
        };
        const state = tradeState(values);
        const terms = quoteTerms(state, pairs);
        const meta: TradeMeta =
          terms && s.quoted
            ? {
                k: 'trade',
                q: {
                  p: s.price,
                  e: NOW + 2_500,
                  t: termsKey(terms),
                  s: {
                    symbol: terms.symbol,
                    side: terms.side,
                    quantity: terms.quantity,
                    quantityCurrency: terms.quantityCurrency ?? '',
                  },
                },
              }
            : { k: 'trade' };
        expect(
          unsafeSequences(
            renderTradeForm(state, meta, {
              knownPairs: pairs,
              paymentMethods: ['user_balance'],
              sandbox: true,
              approvalHint: 'after 2 approvals',
            }),
            ALLOW,
          ),
        ).toEqual([]);
        const checked = checkTradeSubmission(state, meta, pairs);
        if (!checked.ok) tally.errors++;
        if (!checked.ok && process.env.BAD_INPUT_DEBUG)
          for (const [k, v] of Object.entries(checked.errors)) console.log('trade', k, v.slice(0, 40));
        if (!checked.ok)
          return expectClearErrors(
            checked.errors,
            isInput([
              INPUT.tradePair,
              INPUT.tradeSide,
              INPUT.tradeQuantity,
              INPUT.tradeQuantityCurrency,
              INPUT.tradePaymentMethod,
              INPUT.tradeLimitPrice,
              INPUT.tradeSlippage,
            ]),
          );
        const c = checked.value;
        expect(new Big(c.quantity).eq(typedDecimal(s.quantity)!)).toBe(true);
        if (c.slippageBps === undefined) expect(new Big(c.limitPrice).eq(typedDecimal(s.bound.limit!)!)).toBe(true);
        else {
          // The limit is the quoted price moved by exactly the slippage: no float on the way.
          const factor = new Big(10_000).plus(c.side === 'buy' ? c.slippageBps : -c.slippageBps).div(10_000);
          expect(new Big(c.limitPrice).eq(new Big(s.price).times(factor))).toBe(true);
          expect(
            new Big(c.slippageBps).eq(
              new Big(s.bound.slippage!.trim().replace(/\s*%$/, '').replace(/^\./, '0.').replace(/\.$/, '')).times(100),
            ),
          ).toBe(true);
        }
        const built = buildTrade(
          {
            symbol: c.pair,
            side: c.side,
            quantity: c.quantity,
            quantityCurrency: c.quantityCurrency,
            paymentMethod: c.paymentMethod,
            limit: { price: c.limitPrice },
            note: s.note,
          },
          { quoteId: 'q-1', price: s.price, expiresAt: NOW + 2_500 },
        );
        if (!built.ok) {
          expect('message' in built && built.message.trim().length > 0).toBe(true);
          return;
        }
        for (const m of messagesFor(built.value)) expect(unsafeSequences(m, ALLOW)).toEqual([]);
        tally.built++;
      }),
      { numRuns: RUNS },
    );
    expectBothBranches(tally.errors, tally.built);
  });
});

describe('counterparty declarations', () => {
  it('are a field error or the reference body carrying exactly what was typed (trimmed)', () => {
    const free = fc.option(hostileText, { nil: undefined, freq: 3 });
    const rare = seldom(hostileText);
    const fields: Record<(typeof DECLARATION_FIELDS)[number], fc.Arbitrary<string | undefined>> = {
      transactionId: fc.option(mostly(fc.uuid(), hostileText), { nil: undefined, freq: 10 }),
      entityType: fc.option(mostly(fc.constantFrom('individual', 'entity', ' entity '), hostileText), {
        nil: undefined,
        freq: 10,
      }),
      legalName: fc.option(hostileText, { nil: undefined, freq: 10 }),
      ownership: fc.option(mostly(fc.constantFrom('first_party', 'third_party'), hostileText), {
        nil: undefined,
        freq: 10,
      }),
      documentNumber: free,
      address1: rare,
      address2: rare,
      postcode: rare,
      district: rare,
      region: rare,
      countryCode: fc.option(mostly(fc.constantFrom('SG', 'gb', 'US', 'ZZ', 'UK'), hostileText), {
        nil: undefined,
        freq: 3,
      }),
      walletId: seldom(fc.oneof(fc.uuid(), hostileText)),
      walletName: free,
    };
    const form = fc.record(fields);
    const tally = { errors: 0, built: 0 };
    fc.assert(
      fc.property(form, (values) => {
        const r = checkDeclaration(values);
        if (!r.ok) {
          tally.errors++;
          const errors = Object.entries(r.errors);
          expect(errors.length).toBeGreaterThan(0);
          for (const [k, message] of errors) {
            expect((DECLARATION_FIELDS as readonly string[]).includes(k)).toBe(true);
            expect(message.trim().length).toBeGreaterThan(0);
          }
          return;
        }
        const name = r.value.declaration.legalName;
        expect(name).toBe(values.legalName!.trim());
        tally.built++;
      }),
      { numRuns: RUNS },
    );
    expectBothBranches(tally.errors, tally.built);
  });
});

// ---- commands -------------------------------------------------------------------------------------

interface Recorded {
  acks: unknown[];
  said: unknown[];
  threw?: unknown;
}

/** Runs one slash command through its real listener with a recording client. */
async function runCommand(command: string, commandText: string, userId: string): Promise<Recorded> {
  const rec: Recorded = { acks: [], said: [] };
  const say = async (payload: unknown) => {
    rec.said.push(payload);
    return { ok: true, view: { id: 'V0TEST', hash: 'h' }, ts: '1.2' };
  };
  const client = {
    views: { open: say, update: say, push: say, publish: say },
    chat: { postMessage: say, postEphemeral: say, update: say },
  };
  const listener = COMMAND_LISTENERS[command as keyof typeof COMMAND_LISTENERS](slack);
  try {
    await (listener as (args: unknown) => Promise<void>)({
      command: {
        command,
        text: commandText,
        user_id: userId,
        channel_id: 'C0DESK001',
        trigger_id: 't.1',
        response_url: 'http://127.0.0.1:9/r',
        team_id: 'T0',
        user_name: 'u',
      },
      ack: async (payload?: unknown) => void rec.acks.push(payload ?? null),
      respond: say,
      say,
      client,
      logger: slack.logger,
      context: {},
      next: async () => {},
    });
  } catch (err) {
    rec.threw = err;
  }
  return rec;
}

describe('command texts', () => {
  it('every command, any text, any user: acknowledged once, answered safely, never a crash', async () => {
    const commands = Object.keys(COMMAND_LISTENERS);
    // Words that are object keys in JavaScript too: a lookup table must not answer to them.
    const words = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'help',
      'pending',
      'status',
      'withdrawals',
      'deposits',
      'orders',
      'fiat',
      'banks',
      'remove-bank',
      'crypto',
      'BTC',
      'btc-usd',
      'R2345A',
      '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    ];
    const commandText = fc.oneof(
      hostileText,
      fc
        .array(fc.oneof(fc.constantFrom(...words), fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 8 })), {
          maxLength: 4,
        })
        .map((w) => w.join(' ')),
    );
    const tally = { errors: 0, built: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...commands),
        commandText,
        fc.constantFrom(...Object.values(PEOPLE)),
        async (command, t, user) => {
          const r = await runCommand(command, t, user);
          if (r.said.length > 0) tally.built++;
          else tally.errors++;
          expect(r.threw, `${command} ${JSON.stringify(t)}`).toBeUndefined();
          expect(r.acks, `${command} ${JSON.stringify(t)} acknowledged`).toHaveLength(1);
          // Either the acknowledgement says something (usage, refusal, help) or the bot acted.
          const ack = r.acks[0] as { text?: string } | null;
          expect((ack !== null && typeof ack.text === 'string' && ack.text.length > 0) || r.said.length > 0).toBe(true);
          for (const payload of [...r.acks, ...r.said])
            expect(unsafeSequences(payload, ALLOW), `${command} ${JSON.stringify(t)}`).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
    // Both usage answers and real actions (listings, balances, modals opened) were exercised.
    expectBothBranches(tally.errors, tally.built);
  }, 60_000);

  it('subcommands and arguments that are JavaScript object keys get the usage answer, not a crash', async () => {
    for (const command of Object.keys(COMMAND_LISTENERS)) {
      for (const word of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
        const r = await runCommand(command, word, PEOPLE.requester);
        expect(r.threw, `${command} ${word}: ${String(r.threw)}`).toBeUndefined();
        expect(r.acks, `${command} ${word}`).toHaveLength(1);
      }
    }
  });
});
