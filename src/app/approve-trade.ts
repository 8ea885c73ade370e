/**
 * The last approval of a trade, on the shortest path to the order. Holding the request and its
 * quote key, it first takes a fresh quote if the approvers' one cannot be used (nothing is
 * written before: a quote moves no money), then writes the approval TOGETHER with the move to
 * `executing` and the order's idempotency key in one persisted write (or with a new approval
 * round, when the new price is beyond the limit), appends the audit lines in one flush, and sends
 * the order. Between the click and the order: one record write and one audit flush, not two each.
 */
import { mustAdvance, newRound, type DeskRequest } from '../domain/record.js';
import { quoteKey, withinLimit, type TradeSnapshot } from '../domain/request.js';
import { isExchangeError, type ExchangeError } from '../exchange/errors.js';
import { announceAttempt, sendStarted, withAttempt, type AttemptPlan } from './attempt.js';
import { countApproval, reportCounted, reportRefusal, type ApproveResult, type Counted } from './approve.js';
import { emit, type EngineContext } from './context.js';
import { driveHoldingLock } from './drive.js';
import { chooseQuote, orderPlan, quoteFailed, reapprovalSnapshot, reportReapproval, requotedEvent, type QuoteChoice } from './execute-trade.js';

type Next = 'order' | 'reapproval' | 'quote_failed' | 'none';

export function approveLastTrade(ctx: EngineContext, peek: DeskRequest, userId: string, seenHash: string): Promise<ApproveResult> {
  const trade = peek.snapshot as TradeSnapshot;
  let answer!: (result: ApproveResult) => void;
  let fail!: (err: unknown) => void;
  const result = new Promise<ApproveResult>((resolve, reject) => ((answer = resolve), (fail = reject)));
  const work = ctx.requestLocks.run(peek.id, async () => {
    const more = await ctx.quotes.withKey(quoteKey(trade), () => approveAndOrder(ctx, peek.id, trade, userId, seenHash, (r) => answer(r.ok && r.approved ? { ...r, execution } : r)));
    // Re-quotes and reconciles take the quote key again: continue only once it is released.
    if (more) await driveHoldingLock(ctx, peek.id);
  });
  // Fails the answer if the work failed before giving one (a settled promise ignores it).
  work.catch(fail);
  const execution = ctx.background.start(`execution of ${peek.id}`, work);
  return result;
}

async function approveAndOrder(ctx: EngineContext, id: string, trade: TradeSnapshot, userId: string, seenHash: string, answer: (r: ApproveResult) => void): Promise<boolean> {
  const current = await ctx.requests.get(id);
  let choice: QuoteChoice | undefined;
  let quoteError: ExchangeError | undefined;
  try {
    if (current !== undefined) choice = await chooseQuote(ctx, current, trade);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    quoteError = err;
  }
  const now = ctx.clock.now();
  const plan = choice && current && orderPlan(ctx, current, choice);
  const written = await ctx.requests.mutate<{ counted: Counted; final?: DeskRequest; next: Next }>(id, (record) => {
    const counted = countApproval(ctx, record, userId, seenHash, now);
    if (!counted.result.ok || !counted.result.last || counted.next === undefined) return { next: counted.next, result: { counted: counted.result, next: 'none' } };
    const approved = counted.next;
    if (choice === undefined || plan === undefined) return { next: approved, result: { counted: counted.result, final: approved, next: quoteError ? 'quote_failed' : 'none' } };
    const final = withinLimit(trade.side, choice.quote.price, trade.limitPrice)
      ? mustAdvance(approved, 'execute', now, { execution: withAttempt(approved.execution!, plan, now) })
      : mustAdvance(approved, 'ask_reapproval', now, newRound(approved, reapprovalSnapshot(ctx, trade, choice.quote), now, ctx.policy));
    return { next: final, result: { counted: counted.result, final, next: final.state === 'executing' ? 'order' : 'reapproval' } };
  });
  const { counted, next } = written;
  if (!counted.ok) {
    answer(await reportRefusal(ctx, id, userId, seenHash, counted));
    return false;
  }
  // Reported in the order the slow path would: the approval (as approved), the re-quote, then the attempt or the new round.
  const final = written.final ?? counted.request;
  const lines = [reportCounted(ctx, counted, userId)];
  if (choice?.problem && (next === 'order' || next === 'reapproval')) emit(ctx, final, requotedEvent(trade, choice));
  if (next === 'order') lines.push(announceAttempt(ctx, final, plan!, false));
  if (next === 'reapproval') lines.push(reportReapproval(ctx, final, trade));
  await Promise.all(lines);
  answer({ ok: true, request: final, count: counted.count, required: counted.required, approved: counted.last, execution: undefined });
  if (next === 'order') return sendStarted(ctx, final, plan as AttemptPlan);
  if (next === 'quote_failed') await quoteFailed(ctx, final, quoteError!);
  // Approved without a decision on the quote (the record was gone when read): the drive looks again.
  return counted.last && next === 'none';
}
