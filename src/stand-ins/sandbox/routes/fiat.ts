// Fiat lists (page numbers, JSON:API), fees, limits and withdrawal create (body per assumptions.ts): own
// bank account in the same currency, amount within limits, amount plus fee within regular balance.
import { add, decimalPlaces, gt, lt } from '../../../bot/domain/money.js';
import { createFiatWithdrawalBody } from '../../../bot/exchange/schemas.js';
import { available, debitRegular } from '../ledger.js';
import { newestFirst, numberedPage } from '../pagination.js';
import { presentFiatDeposit, presentFiatWithdrawal } from '../present.js';
import { created, fail, ok, validate, type Route, type SandboxResponse } from '../router.js';
import { assetBySymbol, type FiatWithdrawalRecord } from '../state.js';
import { FIAT_WITHDRAWAL_TIMELINE } from '../timings.js';
import { ALPHABET } from '../prng.js';

const JSON_API = 'application/vnd.api+json';
const jsonApi = (body: unknown): SandboxResponse => ({ status: 200, body, contentType: JSON_API });

export const fiatRoutes: Route[] = [
  {
    method: 'GET',
    path: '/fiat/deposits',
    auth: 'key',
    handler: ({ account, query }) =>
      jsonApi(
        numberedPage(
          newestFirst(account.fiatDeposits, (d) => d.id),
          query,
        ).map(presentFiatDeposit),
      ),
  },
  {
    method: 'GET',
    path: '/fiat/withdrawals',
    auth: 'key',
    handler: ({ account, query }) =>
      jsonApi(
        numberedPage(
          newestFirst(account.fiatWithdrawals, (w) => w.id),
          query,
        ).map((w) => presentFiatWithdrawal(w, 'listed')),
      ),
  },
  {
    method: 'GET',
    path: '/fiat/withdrawal_fees',
    auth: 'key',
    handler: ({ state }) =>
      ok(
        state.fiatRules.map((r) => {
          const asset = assetBySymbol(state, r.currency)!;
          return {
            currency: r.currency,
            fee: r.fee,
            asset: {
              id: asset.id,
              name: asset.name,
              symbol: asset.symbol,
              ...(asset.icon_url ? { icon_url: asset.icon_url } : {}),
              asset_type: asset.asset_type,
            },
          };
        }),
      ),
  },
  {
    method: 'GET',
    path: '/fiat/withdrawal_limits',
    auth: 'key',
    handler: ({ state }) =>
      ok(
        state.fiatRules.map((r) => ({
          currency: r.currency,
          minimum_withdrawal_amount: r.minimum,
          maximum_withdrawal_amount: r.maximum,
        })),
      ),
  },
  {
    method: 'POST',
    path: '/fiat/withdrawals',
    auth: 'key',
    scope: 'transfer',
    handler: ({ state, account, body, now, dropNotes }) => {
      const req = validate(createFiatWithdrawalBody, body);
      const rule = state.fiatRules.find((r) => r.currency === req.currency);
      if (!rule) fail(422, `Fiat withdrawals in ${req.currency} are not enabled for this account`);
      const bank = account.bankAccounts.find((b) => b.id === req.bank_account_id);
      if (!bank) fail(404, 'Bank account not found');
      if (bank.currency !== req.currency)
        fail(422, `Bank account ${bank.id} holds ${bank.currency}, not ${req.currency}`);
      const precision = assetBySymbol(state, req.currency)!.precision;
      if (decimalPlaces(req.amount) > precision) fail(422, `Amount has more than ${precision} decimal places`);
      if (lt(req.amount, rule.minimum))
        fail(422, `Amount is below the minimum withdrawal of ${rule.minimum} ${rule.currency}`);
      if (gt(req.amount, rule.maximum))
        fail(422, `Amount is above the maximum withdrawal of ${rule.maximum} ${rule.currency}`);
      const total = add(req.amount, rule.fee);
      const free = available(account, req.currency);
      if (gt(total, free)) {
        fail(
          422,
          `Insufficient balance: amount plus fee is ${total} ${req.currency} but only ${free} ${req.currency} is available`,
        );
      }
      const w: FiatWithdrawalRecord = {
        id: ++state.counters.fiatWithdrawal,
        currency: req.currency,
        amount: req.amount,
        withdrawal_fee: rule.fee,
        status: FIAT_WITHDRAWAL_TIMELINE[0]!.status,
        bank_reference: `SBX-FW-${state.rng.chars(ALPHABET.upper, 6)}`,
        bank_account_id: bank.id,
        created_at: now,
        transactionUuid: state.rng.uuid(),
        // Stored, never used to deduplicate (as the crypto withdrawal's request_id).
        request_id: req.request_id ?? null,
        note: dropNotes ? null : (req.note ?? null),
        stage: 0,
        held: true,
      };
      debitRegular(account, req.currency, total);
      bank.last_used_at = now;
      account.fiatWithdrawals.push(w);
      return created(presentFiatWithdrawal(w, 'created'));
    },
  },
];
