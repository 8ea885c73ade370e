// The effects a decision asks for, run against the exchange, each returned as raw facts for `decide`
// (next-step.ts). The record was persisted before any runs; exchange errors become observations, anything else throws.
import type { RequestRecord, ExecutedRequest } from '../../domain/record.js';
import type { Snapshot, TradeSnapshot } from '../../domain/request.js';
import { findFirst } from '../bounded-lists.js';
import { failureOf, type CheckFacts } from './observations.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import { claimTerms, inDoubtLookAlike } from './look-alikes.js';
import type { EngineContext } from '../context.js';
import type { RequoteReason } from '../../ports/events.js';
import { quoteHoldingKey } from './take-quote.js';
import { send } from './send.js';
import type { Effect, Observation } from './next-step.js';
import { currentDoubt } from './in-doubt.js';
import { lookOnExchange } from './search.js';

/** KV key naming the request that removed a bank account (a removal has no exchange record to own). */
export function removalClaimKey(bankAccountId: number): string {
  return `claim:bank_account_removal:${bankAccountId}`;
}

/** Performs `effect` for `record`; undefined when there is nothing to perform. */
export async function perform(
  ctx: EngineContext,
  record: ExecutedRequest,
  effect: Effect,
): Promise<Observation | undefined> {
  switch (effect.kind) {
    case 'none':
      return undefined;
    case 'check':
      return check(ctx, record);
    case 'quote':
      return quote(ctx, record, effect.reason);
    case 'send':
      return { kind: 'answer', answer: await send(ctx, record, effect.key, effect.quote) };
    case 'look': {
      const at = ctx.clock.now();
      return { kind: 'looked', look: await lookOnExchange(ctx, record, currentDoubt(record, at, ctx.config)), at };
    }
    case 'claim_removal':
      return claimRemoval(ctx, record);
    case 'decide_again':
      return { kind: 'due' };
  }
}

/**
 * The terms claim and a look-alike first (no exchange read), then what execution depends on. Once taken,
 * the claim stays until the request is past doubt, so it stays first in line for its terms.
 */
async function check(ctx: EngineContext, record: RequestRecord): Promise<Observation> {
  const claim = await claimTerms(ctx, record);
  if (!claim.held) return { kind: 'checked', found: { kind: 'twin_in_doubt', lookAlike: claim.by } };
  // A look-alike in doubt from before the terms claim (it holds none) is seen on the live records.
  const lookAlike = await inDoubtLookAlike(ctx, record);
  if (lookAlike !== undefined) return { kind: 'checked', found: { kind: 'twin_in_doubt', lookAlike: lookAlike.id } };
  try {
    return { kind: 'checked', found: { kind: 'read', facts: await readCheckFacts(ctx, record.snapshot) } };
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'checked', found: { kind: 'unreadable', failure: failureOf(err) } };
  }
}

const LOOKUP_LIMIT = { pageSize: 100, maxPages: 20 };

/** The exchange's view of what a request's execution depends on; exchange read errors are thrown. */
async function readCheckFacts(ctx: EngineContext, s: Snapshot): Promise<CheckFacts> {
  switch (s.kind) {
    case 'crypto_withdrawal': {
      const entry = (await ctx.exchange.currencyEntries()).find((e) => e.id === s.cryptoCurrencyId);
      const address = await findFirst(ctx.exchange.savedAddresses(LOOKUP_LIMIT), (a) => a.id === s.destination.id);
      return { kind: s.kind, entry, address, available: await available(ctx, s.asset) };
    }
    case 'fiat_withdrawal': {
      const terms = (await ctx.exchange.fiatTerms()).find((t) => t.currency === s.currency);
      const account = await findFirst(
        ctx.exchange.bankAccounts({ currency: s.currency }, LOOKUP_LIMIT),
        (b) => b.id === s.bankAccount.id,
      );
      return { kind: s.kind, terms, account, available: await available(ctx, s.currency) };
    }
    case 'bank_account_removal':
      return {
        kind: s.kind,
        account: await findFirst(ctx.exchange.bankAccounts(undefined, LOOKUP_LIMIT), (b) => b.id === s.bankAccount.id),
      };
    case 'trade':
      return { kind: s.kind };
  }
}

async function available(ctx: EngineContext, currency: string): Promise<string> {
  return (await ctx.exchange.balances({ currency })).find((b) => b.currency === currency)?.available ?? '0';
}

/** A fresh quote; the runner holds the quote key, so nobody else quotes on these terms meanwhile. */
async function quote(ctx: EngineContext, record: RequestRecord, reason: RequoteReason): Promise<Observation> {
  try {
    return { kind: 'quoted', quote: await quoteHoldingKey(ctx, record.snapshot as TradeSnapshot), reason };
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'quote_failed', failure: failureOf(err) };
  }
}

/** Claims the removed account for this request unless another request claimed it first. */
async function claimRemoval(ctx: EngineContext, record: RequestRecord): Promise<Observation> {
  if (record.snapshot.kind !== 'bank_account_removal')
    throw new Error(`${record.id}: a claim is only for a bank account removal`);
  const key = removalClaimKey(record.snapshot.bankAccount.id);
  // One atomic claim: two replicas removing the same account cannot both read "free".
  if (await ctx.kv.setIfAbsent(key, record.id)) return { kind: 'claimed', by: record.id };
  const owner = await ctx.kv.get<string>(key);
  return { kind: 'claimed', by: owner ?? record.id };
}
