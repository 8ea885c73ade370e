/** Modal builders and the withdrawal form data: structure, escaping and limits. */
import { balance, currencyEntry, fiatTerms, savedAddress, savedBankAccount } from '../../../src/bot/exchange/adapter/lookup-records.js';
import { describe, expect, it } from 'vitest';
import type { AddressBookAddress, Balance, CryptoCurrencyEntry } from '../../../src/bot/exchange/schemas.js';
import { loadingView, noticeView } from '../../../src/bot/slack/kit/modal-views.js';
import { counterpartyView, walletOptions, walletSearchAnswer } from '../../../src/bot/slack/compliance/counterparty-modal.js';
import { rejectReasonView } from '../../../src/bot/slack/approvals/reject-modal.js';
import { tradeView } from '../../../src/bot/slack/trades/trade-modal.js';
import { cryptoWithdrawView, destinationState, fiatWithdrawView, withdrawChoiceView } from '../../../src/bot/slack/withdrawals/withdraw-modal.js';
import { cryptoFormData, fiatFormData } from '../../../src/bot/slack/withdrawals/withdraw-data.js';
import { ACTION, BLOCK, CALLBACK, dynamicBlockId, INPUT } from '../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from './support/block-limits.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);
const ids = (view: { blocks: { block_id?: string }[] }) => view.blocks.map((b) => b.block_id).filter(Boolean);

describe('modal builders', () => {
  it('loading and notice views have no submit and escape text', () => {
    const l = loadingView({ callbackId: CALLBACK.withdrawLoading, title: 'Withdraw', what: 'balances' });
    expect(l.submit).toBeUndefined();
    ok(l);
    expect(JSON.stringify(noticeView('Oops', 'Exchange said <!channel>'))).toContain('&lt;!channel&gt;');
  });

  it('the choice view offers Crypto and Fiat', () => {
    const v = withdrawChoiceView('{}', true);
    expect(JSON.stringify(v)).toContain(ACTION.withdrawChooseCrypto);
    expect(ids(v)).toEqual([BLOCK.sandboxBanner, BLOCK.withdrawChoice]);
    ok(v);
  });

  it('the crypto form keeps within limits with 150 entries and long labels', () => {
    const entries = Array.from({ length: 150 }, (_, i) => ({ id: i, asset: `A${i}`, network: 'N'.repeat(100), precision: 8, fee: '0.1', available: '123456789.12345678' }));
    const destinations = Array.from({ length: 120 }, (_, i) => ({ id: `d${i}`, label: 'L'.repeat(200), address: `0x${'a'.repeat(40)}`, verified: i % 2 === 0, cooldownUntil: NOW + 60_000 }));
    const v = cryptoWithdrawView({ entries, selectedEntryId: 3, destinations, now: NOW, privateMetadata: '{}', sandbox: false, summary: { currency: 'A3', amount: '1', fee: '0.1', total: '1.1' } });
    ok(v);
    expect(ids(v)).toContain(dynamicBlockId.withdrawDestination(3));
    expect(ids(v)).toContain(BLOCK.withdrawSummary);
    expect(v.submit?.text).toBe('Ask for approval');
    // Slack shows at most 100 options: the cut is said under each select, with where to see the rest.
    const inputs = (v.blocks as { type: string; block_id?: string; element?: { options?: unknown[] }; hint?: { text: string } }[]).filter((b) => b.type === 'input');
    const entrySelect = inputs.find((b) => b.block_id === INPUT.withdrawEntry)!;
    expect(entrySelect.element?.options).toHaveLength(100);
    expect(entrySelect.hint?.text).toBe('Lists the first 100 of 150 currencies and networks (Slack shows at most 100); /balances shows every asset.');
    const destinationSelect = inputs.find((b) => b.block_id === dynamicBlockId.withdrawDestination(3))!;
    expect(destinationSelect.element?.options).toHaveLength(100);
    expect(destinationSelect.hint?.text).toMatch(/^Lists the first 100 of 120 saved addresses for this network/);
  });

  it('says nothing of a cut when every option fits', () => {
    const entries = Array.from({ length: 100 }, (_, i) => ({ id: i, asset: `A${i}`, network: 'N', precision: 8, fee: '0.1', available: '1' }));
    const v = cryptoWithdrawView({ entries, selectedEntryId: undefined, destinations: [], now: NOW, privateMetadata: '{}', sandbox: false });
    expect(JSON.stringify(v)).not.toContain('Lists the first');
  });

  it('says so when a network has no saved address', () => {
    const v = cryptoWithdrawView({ entries: [{ id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0', available: '1' }], selectedEntryId: 1, destinations: [], now: NOW, privateMetadata: '{}', sandbox: false });
    expect(JSON.stringify(v)).toContain("mobile app; the API cannot add them");
  });

  it('describes a destination\'s state in zone-free words', () => {
    expect(destinationState({ id: 'd', label: 'x', address: 'y', verified: true, cooldownUntil: NOW + 90 * 60_000 }, NOW)).toBe('verified · cooldown ends in 1 h 30 min');
    expect(destinationState({ id: 'd', label: 'x', address: 'y', verified: true }, NOW)).toBe('verified');
  });

  it('the fiat form shows limits and bank accounts for the chosen currency', () => {
    const v = fiatWithdrawView({
      currencies: [{ currency: 'SGD', fee: '5', minimum: '100', maximum: '200000', available: '1000' }],
      selectedCurrency: 'SGD',
      banks: [{ id: 42, display: 'DBS SGD ••••6789 (Desk)', verified: false }],
      privateMetadata: '{}',
      sandbox: false,
    });
    ok(v);
    const text = JSON.stringify(v);
    expect(text).toContain('from 100 SGD to 200,000 SGD');
    expect(text).toContain('self-added');
  });

  it('the trade form asks for a price or a slippage and shows the quote', () => {
    const v = tradeView({ knownPairs: ['BTC-SGD'], pair: 'BTC-SGD', side: 'sell', quantityIn: 'base', paymentMethods: ['user_balance'], quote: { pair: 'BTC-SGD', side: 'sell', price: '90000', expiresAt: NOW, quantity: '1', quantityCurrency: 'BTC' }, privateMetadata: '{}', sandbox: true });
    ok(v);
    expect(ids(v)).toEqual(expect.arrayContaining([INPUT.tradePair, INPUT.tradeSide, INPUT.tradeQuantity, INPUT.tradeQuantityCurrency, INPUT.tradePaymentMethod, INPUT.tradeLimitPrice, INPUT.tradeSlippage, BLOCK.tradeQuote]));
    expect(JSON.stringify(v)).toContain('BTC (base)');
  });

  it('the trade form\'s hint names every known pair it can hold, and counts the rest', () => {
    const hintOf = (knownPairs: string[]) => {
      const v = tradeView({ knownPairs, paymentMethods: ['user_balance'], privateMetadata: '{}', sandbox: false });
      ok(v);
      return (v.blocks as { block_id?: string; hint?: { text: string } }[]).find((b) => b.block_id === INPUT.tradePair)!.hint!.text;
    };
    const forty = Array.from({ length: 40 }, (_, i) => `C${String(i).padStart(2, '0')}-SGD`);
    // Forty used to be cut to thirty without a word.
    expect(hintOf(forty)).toBe(`Pairs: ${forty.join(', ')}`);
    const many = Array.from({ length: 400 }, (_, i) => `C${String(i).padStart(3, '0')}-SGD`);
    const hint = hintOf(many);
    const named = many.filter((p) => hint.includes(p));
    expect(hint).toBe(`Pairs: ${named.join(', ')} and ${400 - named.length} more`);
    expect(hint.length).toBeLessThanOrEqual(2_000);
  });

  it('the reject modal requires a reason', () => {
    const v = rejectReasonView({ requestId: 'R1', summary: '<!channel>', privateMetadata: '{}' });
    ok(v);
    expect(JSON.stringify(v)).toContain('&lt;!channel&gt;');
    expect(v.blocks.find((b) => b.block_id === INPUT.rejectReason)).not.toHaveProperty('optional');
  });

  it('the counterparty modal has the reference\'s fields and the unverified-wallet warning', () => {
    const v = counterpartyView({ privateMetadata: '{}', sandbox: false });
    ok(v);
    expect(ids(v)).toEqual(
      expect.arrayContaining([INPUT.cpTransaction, INPUT.cpEntityType, INPUT.cpLegalName, INPUT.cpOwnership, INPUT.cpDocumentNumber, INPUT.cpAddress1, INPUT.cpCountryCode, INPUT.cpWallet, INPUT.cpWalletName, BLOCK.cpWalletWarning]),
    );
    expect(JSON.stringify(v)).toContain('unverified');
  });

  it('wallet options show type and risk, within option limits', () => {
    const opts = walletOptions(Array.from({ length: 120 }, (_, i) => ({ id: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`, name: 'N'.repeat(100), type: 'hosted' as const, riskLevel: 'high' as const })));
    expect(opts).toHaveLength(100);
    expect(opts[0]!.text.text.length).toBeLessThanOrEqual(75);
    expect(opts[0]!.description?.text).toBe('hosted (exchange or custodian) · HIGH risk');
  });
});

describe('wallet search answer', () => {
  const wallet = (i: number) => ({ id: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`, name: `Wallet ${i}`, type: 'hosted' as const, riskLevel: 'low' as const });
  it('past 100 matches, gives the first 100 under a label saying how many matched and that typing narrows them', () => {
    const answer = walletSearchAnswer(Array.from({ length: 150 }, (_, i) => wallet(i)));
    if (!('option_groups' in answer)) throw new Error('expected option groups');
    expect(answer.option_groups).toHaveLength(1);
    expect(answer.option_groups[0]!.label.text).toBe('First 100 of 150 matches: type more to narrow');
    expect(answer.option_groups[0]!.options).toHaveLength(100);
    expect(answer.option_groups[0]!.options.at(-1)!.text.text).toBe('Wallet 99');
  });

  it('gives plain options when every match fits', () => {
    expect(walletSearchAnswer(Array.from({ length: 100 }, (_, i) => wallet(i)))).toEqual({ options: expect.any(Array) });
    expect((walletSearchAnswer(Array.from({ length: 100 }, (_, i) => wallet(i))) as { options: unknown[] }).options).toHaveLength(100);
  });
});

describe('withdrawal form data', () => {
  const NET_A = '11111111-1111-4111-8111-111111111111';
  const NET_B = '22222222-2222-4222-8222-222222222222';
  const entries: CryptoCurrencyEntry[] = [
    { id: 1, name: 'Bitcoin', code: 'BTC', precision: 8, network: { uuid: NET_A, name: 'Bitcoin' }, asset: { symbol: 'BTC' }, network_id: NET_A, withdrawal_fee: '0.0005' },
    { id: 2, name: 'No precision', code: 'XYZ', network: { uuid: NET_B, name: 'B' }, asset: {}, network_id: NET_B, withdrawal_fee: '1' },
  ];
  const addresses: AddressBookAddress[] = [
    { id: 'aaaaaaaa-0000-4000-8000-000000000001', label: 'A', address: 'addr-a', status: 'verified', crypto_currency_networks: [{ uuid: NET_A }], withdrawal_cooldown_until: NOW },
    { id: 'aaaaaaaa-0000-4000-8000-000000000002', label: 'B', address: 'addr-b', status: 'VERIFIED', crypto_currency_networks: [{ uuid: NET_B }] },
  ];
  const balances: Balance[] = [{ currency: 'btc', regular: '2', locked: '0', locked_balance: { orders: '1', alternative_products: '0' } }];

  it('keeps entries with a precision, matches destinations by network and takes the available balance', () => {
    const data = cryptoFormData(entries.map(currencyEntry), balances.map(balance), addresses.map(savedAddress));
    expect(data.entries).toEqual([{ id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0.0005', available: '2' }]);
    expect(data.destinations[1]).toEqual([{ id: addresses[0]!.id, label: 'A', address: 'addr-a', addressTag: null, verified: true, cooldownUntil: NOW }]);
  });

  it('offers a fiat currency only with both a limit and a fee row', () => {
    const data = fiatFormData(
      fiatTerms(
        [{ currency: 'SGD', fee: '5', asset: { id: 1, name: 'SGD', symbol: 'SGD', asset_type: 'fiat' } }],
        [
          { currency: 'SGD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '1000' },
          { currency: 'USD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '1000' },
        ],
      ),
      [],
      [
        { id: 1, currency: 'SGD', account_number: '111122223333', beneficiary_name: 'Desk' },
        { id: 2, currency: 'USD', account_number: '999988887777', beneficiary_name: 'Desk' },
      ].map(savedBankAccount),
    );
    expect(data.currencies.map((c) => c.currency)).toEqual(['SGD']);
    expect(data.banks.SGD?.map((b) => b.id)).toEqual([1]);
    expect(data.currencies[0]?.available).toBe('0');
  });
});
