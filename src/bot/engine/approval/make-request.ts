// A requester asks for a withdrawal, trade or bank account removal. The engine reads the exchange and
// freezes the snapshot; drivers pass ids and amounts, never display values, so nothing shown can be forged.
import { withExchangeNote } from '../../domain/desk-reference.js';
import { currenciesToValue, destinationAllowed, mayRequest, ruleFor } from '../../domain/policy.js';
import { isLimited, judgeLimits, limitScope, withLimitGroups } from './limits.js';
import type { Mutation } from '../../ports/store.js';
import { freeze } from '../../domain/policy/rules.js';
import { newRequest, type RequestRecord } from '../../domain/record.js';
import { activeDelegations } from '../delegation/delegations.js';
import { countedNow } from './recount.js';
import { withValuations } from '../../domain/valuation.js';
import { stepUpCurrencies } from '../../domain/step-up/required.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import {
  buildBankRemoval,
  buildCryptoWithdrawal,
  buildFiatWithdrawal,
  buildTrade,
  checkTradeFields,
  type BankAccountRef,
  type BuildResult,
  type DestinationFacts,
  type IndicativeQuote,
  type Snapshot,
  type TradeFields,
} from '../../domain/request.js';
import type { SavedAddress, SavedBankAccount } from '../../ports/exchange-port.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import { collect, findFirst } from '../bounded-lists.js';
import { audit, stamp, type EngineContext } from '../context.js';
import { takeQuote } from '../execution/take-quote.js';
import { priceIn } from './price-request.js';

export type RequestInput =
  | {
      kind: 'crypto_withdrawal';
      cryptoCurrencyId: number;
      addressBookId: string;
      amount: string;
      note?: string | null;
      purpose?: string | null;
    }
  | { kind: 'fiat_withdrawal'; currency: string; bankAccountId: number; amount: string; note?: string | null }
  | ({ kind: 'trade' } & TradeFields)
  | { kind: 'bank_account_removal'; bankAccountId: number; note?: string | null };

export type RequestResult = { ok: true; request: RequestRecord } | Refusal;

const LOOKUP_LIMIT = { pageSize: 100, maxPages: 20 };
/** Attempts at drawing an unused short id before giving up (a clash is already rare). */
const ID_ATTEMPTS = 20;

/** Creates a pending request from `userId`'s input, or says why not. */
export async function createRequest(ctx: EngineContext, userId: string, input: RequestInput): Promise<RequestResult> {
  if (!mayRequest(ctx.policy, userId)) return refused(ctx, userId, input, refuse('not_allowed_to_request'));
  const built = await snapshotFor(ctx, input);
  if (!built.ok) return refused(ctx, userId, input, built);
  // Priced before it is made: the rule it falls under is judged on this value, frozen with it.
  const currencies = [
    ...currenciesToValue(ctx.policy, built.value),
    ...stepUpCurrencies(ctx.stepUpSettings, built.value),
  ];
  const priced = await priceIn(ctx, built.value, [...new Set(currencies)]);
  if (!priced.ok) return refused(ctx, userId, input, priced);
  const valued = withValuations(built.value, priced.valuations);
  // The first rule that matches decides, and the request keeps it whatever the file says later.
  const rule = ruleFor(ctx.policy, valued);
  if (rule === undefined) return refused(ctx, userId, input, refuse('no_rule'));
  const inserted = await insert(ctx, userId, { ...valued, rule: freeze(rule) });
  if (!inserted.ok) return refused(ctx, userId, input, inserted);
  const request = inserted.request;
  await audit(ctx, 'request.created', userId, request.id, {
    kind: request.kind,
    snapshot: request.snapshot,
    snapshotHash: request.snapshotHash,
    requiredApprovals: request.requiredApprovals,
    rule: { name: rule.name, hash: rule.hash },
    policy: ctx.policy.source,
    expiresAt: request.expiresAt,
  });
  ctx.notices.kick();
  return { ok: true, request };
}

async function refused(ctx: EngineContext, userId: string, input: RequestInput, refusal: Refusal): Promise<Refusal> {
  await audit(ctx, 'request.refused', userId, undefined, {
    kind: input.kind,
    reason: refusal.reason,
    message: refusal.message,
    field: refusal.field,
  });
  return refusal;
}

/** Written with the limits' check when a limit covers it, against the requests counted at that moment. */
async function insert(ctx: EngineContext, userId: string, snapshot: Snapshot): Promise<RequestResult> {
  // Who may approve in an approver's place is shown from the first message on.
  const delegations = await activeDelegations(ctx);
  for (let i = 0; i < ID_ATTEMPTS; i++) {
    const id = ctx.ids.requestId();
    const now = ctx.clock.now();
    // The note sent to the exchange names the request: frozen with its id, so approvers see it.
    const record = newRequest({
      id,
      requester: userId,
      snapshot: withExchangeNote(snapshot, id),
      now,
      policy: ctx.policy,
    });
    const write = (
      current: RequestRecord | undefined,
      others: readonly RequestRecord[],
    ): Mutation<RequestRecord, RequestResult | undefined> => {
      if (current !== undefined) return { result: undefined };
      const limits = judgeLimits(ctx.policy, record.snapshot, others, now);
      if (!limits.ok) return { result: limits };
      const limited = limits.added.length > 0 ? withLimitGroups(record, limits.added) : record;
      const made = { ...limited, ...countedNow(ctx.policy, limited, delegations, now) };
      // The approval message's event is written with the request: a crash cannot leave it unposted.
      return {
        next: made,
        result: { ok: true, request: made },
        outbox: [stamp(ctx, made, { type: 'request.created' })],
      };
    };
    const result = isLimited(ctx.policy, snapshot)
      ? await ctx.requests.mutateInScope(limitScope(ctx.policy, now), id, write)
      : await ctx.requests.mutate(id, (current) => write(current, []));
    if (result !== undefined) return result;
  }
  throw new Error(`no unused request id after ${ID_ATTEMPTS} attempts`);
}

type SnapshotResult = { ok: true; value: Snapshot } | Refusal;

async function snapshotFor(ctx: EngineContext, input: RequestInput): Promise<SnapshotResult> {
  try {
    return fromBuild(await build(ctx, input));
  } catch (err) {
    if (isExchangeError(err)) return refuse('exchange_error', err.userMessage);
    throw err;
  }
}

function fromBuild(result: BuildResult<Snapshot> | Refusal): SnapshotResult {
  if (result.ok) return result;
  if ('reason' in result) return result;
  return refuse('invalid_input', result.message, result.field);
}

async function build(ctx: EngineContext, input: RequestInput): Promise<BuildResult<Snapshot> | Refusal> {
  switch (input.kind) {
    case 'crypto_withdrawal':
      return buildCrypto(ctx, input);
    case 'fiat_withdrawal':
      return buildFiat(ctx, input);
    case 'trade':
      return buildTradeRequest(ctx, input);
    case 'bank_account_removal':
      return buildRemoval(ctx, input);
  }
}

async function buildCrypto(
  ctx: EngineContext,
  input: Extract<RequestInput, { kind: 'crypto_withdrawal' }>,
): Promise<BuildResult<Snapshot>> {
  const entries = await ctx.exchange.currencyEntries();
  const entry = entries.find((e) => e.id === input.cryptoCurrencyId);
  if (entry === undefined) return invalid('currency', 'This currency entry is not offered by the exchange.');
  const { precision } = entry;
  if (precision === null)
    return invalid(
      'currency',
      'The exchange gives no precision for this currency entry, so the amount cannot be rounded as it will be.',
    );
  const address = await findFirst(ctx.exchange.savedAddresses(LOOKUP_LIMIT), (a) => a.id === input.addressBookId);
  if (address === undefined) return invalid('destination', 'This destination is not in the address book.');
  const allowed = destinationAllowed(ctx.policy, entry.asset, address);
  if (!allowed.ok) return invalid('destination', allowed.message);
  return buildCryptoWithdrawal({ ...entry, precision }, destinationOf(address), {
    amount: input.amount,
    note: input.note ?? null,
    purpose: input.purpose ?? null,
  });
}

async function buildFiat(
  ctx: EngineContext,
  input: Extract<RequestInput, { kind: 'fiat_withdrawal' }>,
): Promise<BuildResult<Snapshot>> {
  const terms = (await ctx.exchange.fiatTerms()).find((t) => t.currency === input.currency);
  const fee = terms?.fee ?? null;
  if (terms === undefined || fee === null)
    return invalid('currency', `Fiat withdrawals in ${input.currency} are not enabled for this account.`);
  const account = await findFirst(
    ctx.exchange.bankAccounts({ currency: input.currency }, LOOKUP_LIMIT),
    (b) => b.id === input.bankAccountId,
  );
  if (account === undefined) return invalid('bank_account', `No ${input.currency} bank account with this id.`);
  return buildFiatWithdrawal(
    { currency: input.currency, fee, minimum: terms.minimum, maximum: terms.maximum, bankAccount: bankRefOf(account) },
    { amount: input.amount, note: input.note ?? null },
  );
}

async function buildTradeRequest(
  ctx: EngineContext,
  input: Extract<RequestInput, { kind: 'trade' }>,
): Promise<BuildResult<Snapshot> | Refusal> {
  const { kind: _kind, ...fields } = input;
  const checked = checkTradeFields(fields);
  if (!checked.ok) return checked;
  // The quote is taken for the quantity as the amount rule read it, the one the snapshot freezes.
  const quote = await indicativeQuote(ctx, checked.value);
  return buildTrade(checked.value, quote);
}

async function buildRemoval(
  ctx: EngineContext,
  input: Extract<RequestInput, { kind: 'bank_account_removal' }>,
): Promise<BuildResult<Snapshot>> {
  const accounts = await collect(ctx.exchange.bankAccounts(undefined, LOOKUP_LIMIT));
  const account = accounts.find((b) => b.id === input.bankAccountId);
  if (account === undefined) return invalid('bank_account', 'No bank account with this id.');
  const open = (await ctx.requests.listLive()).find(
    (r) => r.snapshot.kind === 'bank_account_removal' && r.snapshot.bankAccount.id === account.id,
  );
  if (open !== undefined)
    return invalid('bank_account', `A removal of this bank account is already open (${open.id}).`);
  return buildBankRemoval(bankRefOf(account), { note: input.note ?? null });
}

/** What a snapshot keeps of a saved address: the facts approved, not its current status. */
function destinationOf(a: SavedAddress): DestinationFacts {
  return {
    id: a.id,
    label: a.label,
    address: a.address,
    addressTag: a.addressTag,
    verified: a.verified,
    networkIds: a.networkIds,
  };
}

/** What a snapshot keeps of a bank account: the number only as its digest. */
function bankRefOf(b: SavedBankAccount): BankAccountRef {
  return { id: b.id, currency: b.currency, display: b.display, accountNumberDigest: b.accountNumberDigest };
}

/** An indicative quote for a trade (the Slack modal's preview uses the same path). */
export function indicativeQuote(ctx: EngineContext, fields: TradeFields): Promise<IndicativeQuote> {
  return takeQuote(ctx, {
    symbol: fields.symbol,
    side: fields.side,
    quantity: fields.quantity,
    quantityCurrency: fields.quantityCurrency ?? null,
    paymentMethod: fields.paymentMethod,
  });
}

function invalid(field: string, message: string): BuildResult<never> {
  return { ok: false, field, message };
}
