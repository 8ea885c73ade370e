// Crypto withdrawals: create, list, get. Create applies the reference's rules in the order a person would
// fix them: entry, destination (own, network, verified, cooldown, recipient), amount (precision, minimum, balance + fee).
import { add, gt, isZero, lt, roundDown } from '../../../bot/domain/money.js';
import { ADDRESS_VERIFIED_STATUS } from '../../../bot/exchange/assumptions.js';
import { createCryptoWithdrawalBody, uuid } from '../../../bot/exchange/schemas.js';
import { available, debitRegular } from '../ledger.js';
import { cursorPage, newestFirst, timeParam } from '../pagination.js';
import { presentWithdrawal } from '../present.js';
import { created, fail, ok, validate, type Route } from '../router.js';
import {
  entryById,
  networkByUuid,
  type AccountState,
  type CryptoWithdrawalRecord,
  type SandboxState,
} from '../state.js';
import type { z } from 'zod';
import { WITHDRAWAL_TIMELINE } from '../timings.js';

export const withdrawalRoutes: Route[] = [
  {
    method: 'POST',
    path: '/crypto/withdrawals',
    auth: 'key',
    scope: 'transfer',
    handler: ({ state, account, body, now, dropNotes }) => {
      const req = validate(createCryptoWithdrawalBody, body);
      const w = makeWithdrawal(state, account, req, now, dropNotes);
      return created(presentWithdrawal(state, account.addressBook, w));
    },
  },
  {
    method: 'GET',
    path: '/crypto/withdrawals',
    auth: 'key',
    handler: ({ state, account, query }) => {
      const from = timeParam(query, 'from_time');
      const to = timeParam(query, 'to_time');
      const items = newestFirst(account.withdrawals, (w) => w.id).filter(
        (w) => (from === undefined || w.created_at >= from) && (to === undefined || w.created_at <= to),
      );
      const page = cursorPage(items, query, (w) => w.id);
      return ok(
        page.items.map((w) => presentWithdrawal(state, account.addressBook, w)),
        page.headers,
      );
    },
  },
  {
    method: 'GET',
    path: '/crypto/withdrawals/:id',
    auth: 'key',
    handler: ({ state, account, params }) => {
      // Another account's withdrawal is "not found" too (reference endpoint 8).
      const w = uuid.safeParse(params.id).success ? account.withdrawals.find((x) => x.id === params.id) : undefined;
      if (!w) fail(404, 'Withdrawal not found');
      return ok(presentWithdrawal(state, account.addressBook, w));
    },
  },
];

/** A withdrawal made by the exchange's rules (the create route's, and the control surface's for one made in the exchange's app). */
export function makeWithdrawal(
  state: SandboxState,
  account: AccountState,
  req: z.infer<typeof createCryptoWithdrawalBody>,
  now: number,
  dropNotes: boolean,
): CryptoWithdrawalRecord {
  const entry = entryById(state, req.crypto_currency_id);
  if (!entry) fail(422, `Unknown crypto_currency_id ${req.crypto_currency_id}`);
  const address = account.addressBook.find((a) => a.id === req.address_book_address_id);
  if (!address) fail(404, 'Address not found');
  if (!address.networkUuids.includes(entry.networkUuid)) {
    const network = networkByUuid(state, entry.networkUuid)!;
    fail(
      422,
      `Address "${address.label}" is not on the ${network.name} network of crypto currency ${entry.id} (${entry.name})`,
    );
  }
  if (address.status !== ADDRESS_VERIFIED_STATUS)
    fail(422, `Address "${address.label}" is not verified (status ${address.status})`);
  if (address.withdrawal_cooldown_until !== null && now < address.withdrawal_cooldown_until) {
    fail(
      422,
      `Address "${address.label}" is in its withdrawal cooldown until ${new Date(address.withdrawal_cooldown_until).toISOString()}`,
      {
        withdrawal_cooldown_until: address.withdrawal_cooldown_until,
      },
    );
  }
  if (!address.wallet_identity) {
    fail(
      422,
      `Recipient information missing for address "${address.label}": complete the recipient (Travel Rule) details of the saved address in the mobile app`,
    );
  }
  // The reference: rounded down to the currency's precision before amount plus fee is computed.
  const amount = roundDown(req.amount, entry.precision);
  if (isZero(amount) || lt(amount, entry.minimum_withdrawal)) {
    fail(
      422,
      `Amount ${amount} ${entry.code} is below the minimum withdrawal of ${entry.minimum_withdrawal} ${entry.code}`,
    );
  }
  const total = add(amount, entry.withdrawal_fee);
  const free = available(account, entry.assetSymbol);
  if (gt(total, free)) {
    fail(
      422,
      `Insufficient balance: amount plus fee is ${total} ${entry.assetSymbol} but only ${free} ${entry.assetSymbol} is available`,
    );
  }
  const first = WITHDRAWAL_TIMELINE[0]!;
  const w: CryptoWithdrawalRecord = {
    id: state.rng.uuid(),
    entryId: entry.id,
    addressId: address.id,
    address: address.address,
    address_tag: address.address_tag,
    amount,
    fee: entry.withdrawal_fee,
    total,
    created_at: now,
    status: first.status,
    travel_rule_status: first.travel_rule_status,
    pending_reason: first.pending_reason,
    transaction_hash: null,
    link_explorer: null,
    note: dropNotes ? null : (req.note ?? null),
    // Stored, never listed (the reference's records do not show it) nor used to deduplicate.
    request_id: req.request_id ?? null,
    transaction_purpose: req.transaction_purpose ?? null,
    transactionUuid: state.rng.uuid(),
    stage: 0,
    held: true,
  };
  debitRegular(account, entry.assetSymbol, total);
  account.withdrawals.push(w);
  return w;
}
