/**
 * The effects a decision asks for, performed against the exchange (and the key-value store for a
 * removal's claim), each turned into the next observation. Exchange errors become observations;
 * anything else is a bug and throws. The record was persisted before any of these runs.
 */
import type { DeskRequest, ExecutedRequest } from '../../domain/record.js';
import type { TradeSnapshot } from '../../domain/request.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import { checkBeforeExecution } from './checks.js';
import { claimTerms, inDoubtTwin } from './look-alikes.js';
import type { EngineContext } from '../context.js';
import type { RequoteReason } from '../events.js';
import { quoteHoldingKey } from './take-quote.js';
import { send } from './send.js';
import type { Effect, Observation } from './decide.js';
import { currentDoubt } from './in-doubt.js';
import { lookOnExchange } from './search.js';

/** KV key naming the request that removed a bank account (a removal has no exchange record to own). */
export function removalClaimKey(bankAccountId: number): string {
  return `claim:bank_account_removal:${bankAccountId}`;
}

/** Performs `effect` for `record`; undefined when there is nothing to perform. */
export async function perform(ctx: EngineContext, record: ExecutedRequest, effect: Effect): Promise<Observation | undefined> {
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
  }
}

/**
 * The terms claim and a look-alike in doubt first (they cost no exchange read), then the
 * exchange's state. The claim, once taken, stays with this request until it is past doubt (the
 * runner releases it): it is first in line for its terms even while it waits.
 */
async function check(ctx: EngineContext, record: DeskRequest): Promise<Observation> {
  const claim = await claimTerms(ctx, record);
  if (!claim.held) return { kind: 'checked', result: { ok: true, twinInDoubt: claim.by } };
  // A twin in doubt from before the terms claim (it holds none) is seen on the live records.
  const twin = await inDoubtTwin(ctx, record);
  if (twin !== undefined) return { kind: 'checked', result: { ok: true, twinInDoubt: twin.id } };
  try {
    const checked = await checkBeforeExecution(ctx, record);
    return { kind: 'checked', result: checked.ok ? { ok: true, twinInDoubt: null } : checked };
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'checked', result: { ok: false, action: 'unreadable', message: err.userMessage, exchangeMessages: err.messages.join('; ') } };
  }
}

/** A fresh quote; the runner holds the quote key, so nobody else quotes on these terms meanwhile. */
async function quote(ctx: EngineContext, record: DeskRequest, reason: RequoteReason): Promise<Observation> {
  try {
    return { kind: 'quoted', quote: await quoteHoldingKey(ctx, record.snapshot as TradeSnapshot), reason };
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'quote_failed', retryable: err.outcomeUnknown || err.kind === 'rate_limited', message: err.userMessage, exchangeMessages: err.messages.join('; ') };
  }
}

/** Claims the removed account for this request unless another request claimed it first. */
async function claimRemoval(ctx: EngineContext, record: DeskRequest): Promise<Observation> {
  if (record.snapshot.kind !== 'bank_account_removal') throw new Error(`${record.id}: a claim is only for a bank account removal`);
  const key = removalClaimKey(record.snapshot.bankAccount.id);
  // One atomic claim: two replicas removing the same account cannot both read "free".
  if (await ctx.kv.setIfAbsent(key, record.id)) return { kind: 'claimed', by: record.id };
  const owner = await ctx.kv.get<string>(key);
  return { kind: 'claimed', by: owner ?? record.id };
}
