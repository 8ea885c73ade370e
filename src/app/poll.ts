/**
 * Following submitted withdrawals and orders until they are final. One list call covers many
 * requests (crypto withdrawals since the oldest one due, orders likewise, fiat withdrawals by
 * page); single reads only for what the lists did not reach. Every page or read takes a token
 * from the polling budget (the overall rate cap); what the budget does not reach waits for the
 * next cycle. Intervals grow while nothing changes and reset on a change.
 *
 * Each change is persisted as the request's "last reported" values BEFORE it is notified, and
 * compared against them: a change is reported once and never twice, also across restarts (a
 * crash between the two drops that notice; see events.ts).
 */
import { firstSentAt, mustAdvance, type DeskRequest, type RecordChanges } from '../domain/record.js';
import { isExchangeError } from '../exchange/errors.js';
import { audit, emit, EXCHANGE, persistStep, SYSTEM, type EngineContext } from './context.js';
import { changedFields, finalFailureReason, fromCryptoWithdrawal, fromFiatWithdrawal, fromOrder, remoteStatusOf, type RemoteView } from './remote.js';

export interface PollSummary {
  /** Requests whose status was read this cycle. */
  polled: number;
  /** Exchange reads made (pages and single reads). */
  calls: number;
  /** Requests with a reported change. */
  changed: number;
  /** Requests whose polling stopped at the maximum age. */
  stopped: number;
}

const POLLED_KINDS = ['crypto_withdrawal', 'trade', 'fiat_withdrawal'] as const;
type PolledKind = (typeof POLLED_KINDS)[number];

/** One polling cycle over the live records. */
export async function pollDue(ctx: EngineContext, live: readonly DeskRequest[]): Promise<PollSummary> {
  const summary: PollSummary = { polled: 0, calls: 0, changed: 0, stopped: 0 };
  const followed = live.filter((r) => r.state === 'submitted' && r.pollingStoppedAt === null && r.execution?.exchangeId);
  const now = ctx.clock.now();
  const active: DeskRequest[] = [];
  for (const request of followed) {
    if (now - (request.execution!.submittedAt ?? now) > ctx.config.poll.maxAgeMs) summary.stopped += (await stopPolling(ctx, request)) ? 1 : 0;
    else active.push(request);
  }
  for (const kind of POLLED_KINDS) {
    const ofKind = active.filter((r) => r.kind === kind);
    const due = ofKind.filter((r) => (ctx.schedules.poll.get(r.id)?.nextAt ?? 0) <= now);
    if (due.length > 0) await pollKind(ctx, kind, ofKind, due, summary);
  }
  return summary;
}

async function pollKind(ctx: EngineContext, kind: PolledKind, ofKind: DeskRequest[], allDue: DeskRequest[], summary: PollSummary): Promise<void> {
  // Requests a list did not reach last time are read on their own first, so none starves.
  const starved = allDue.filter((r) => ctx.schedules.poll.get(r.id)?.starved && kind !== 'fiat_withdrawal');
  for (const request of starved) await readOne(ctx, request, summary);
  const due = allDue.filter((r) => (ctx.schedules.poll.get(r.id)?.nextAt ?? 0) <= ctx.clock.now() && !starved.includes(r));
  if (due.length === 0) return;
  let views: Map<string, RemoteView>;
  try {
    views = await listViews(ctx, kind, due, summary);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    ctx.logger.warn('polling list failed; backing off', { kind, error: err.message });
    for (const request of due) reschedule(ctx, request.id, false);
    return;
  }
  const seen = new Set<string>();
  for (const request of ofKind) {
    const view = views.get(request.execution!.exchangeId!);
    if (view === undefined) continue;
    seen.add(request.id);
    await applyAndReschedule(ctx, request, view, summary);
  }
  for (const request of due.filter((r) => !seen.has(r.id))) await readOne(ctx, request, summary);
}

async function listViews(ctx: EngineContext, kind: PolledKind, due: DeskRequest[], summary: PollSummary): Promise<Map<string, RemoteView>> {
  const bounds = { pageSize: ctx.config.poll.pageSize, maxPages: ctx.config.poll.maxPages };
  // The window of the due requests only: a list that serves newest first cannot starve older ones.
  const sentAt = due.map((r) => firstSentAt(r) ?? r.execution!.submittedAt ?? 0);
  const window = { from_time: Math.max(0, Math.min(...sentAt) - ctx.config.clockSkewMs), to_time: Math.max(...due.map((r) => r.execution!.submittedAt ?? 0)) + ctx.config.clockSkewMs };
  const views = new Map<string, RemoteView>();
  const add = (view: RemoteView | undefined) => {
    if (view !== undefined) views.set(view.exchangeId, view);
  };
  if (kind === 'crypto_withdrawal') (await budgeted(ctx, ctx.exchange.listCryptoWithdrawals(window, bounds), summary)).forEach((w) => add(fromCryptoWithdrawal(w)));
  else if (kind === 'trade') (await budgeted(ctx, ctx.exchange.listOrders(window, bounds), summary)).forEach((o) => add(fromOrder(o)));
  else (await budgeted(ctx, ctx.exchange.listFiatWithdrawals(bounds), summary)).forEach((f) => add(fromFiatWithdrawal(f)));
  return views;
}

/**
 * Reads a list page by page while the budget allows, up to maxPages. A token is taken before each
 * page could be fetched, also the one after a full last page that turns out not to exist: the
 * count errs high by at most one per list, so the cap is never exceeded.
 */
async function budgeted<T>(ctx: EngineContext, items: AsyncIterable<T>, summary: PollSummary): Promise<T[]> {
  const { pageSize, maxPages } = ctx.config.poll;
  const out: T[] = [];
  const iterator = items[Symbol.asyncIterator]();
  try {
    while (out.length < pageSize * maxPages) {
      if (out.length % pageSize === 0) {
        if (!ctx.pollBudget.tryTake()) return out;
        summary.calls++;
      }
      const next = await iterator.next();
      if (next.done) return out;
      out.push(next.value);
    }
    return out;
  } finally {
    await iterator.return?.();
  }
}

/** A request the lists did not reach: a single read if the budget allows (fiat has none). */
async function readOne(ctx: EngineContext, request: DeskRequest, summary: PollSummary): Promise<void> {
  if (request.kind === 'fiat_withdrawal') return reschedule(ctx, request.id, false);
  if (!ctx.pollBudget.tryTake()) {
    const schedule = ctx.schedules.poll.get(request.id);
    ctx.schedules.poll.set(request.id, { nextAt: schedule?.nextAt ?? 0, intervalMs: schedule?.intervalMs ?? ctx.config.poll.intervalMs, starved: true });
    return;
  }
  summary.calls++;
  const id = request.execution!.exchangeId!;
  try {
    const view = request.kind === 'trade' ? fromOrder(await ctx.exchange.getOrder(id)) : fromCryptoWithdrawal(await ctx.exchange.getCryptoWithdrawal(id));
    await applyAndReschedule(ctx, request, view, summary);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    ctx.logger.warn('polling read failed; backing off', { requestId: request.id, error: err.message });
    reschedule(ctx, request.id, false);
  }
}

async function applyAndReschedule(ctx: EngineContext, request: DeskRequest, view: RemoteView, summary: PollSummary): Promise<void> {
  summary.polled++;
  const changed = await applyRemote(ctx, request.id, view);
  if (changed) summary.changed++;
  reschedule(ctx, request.id, changed);
}

function reschedule(ctx: EngineContext, requestId: string, changed: boolean): void {
  const { intervalMs, backoffFactor, maxIntervalMs } = ctx.config.poll;
  const previous = ctx.schedules.poll.get(requestId)?.intervalMs ?? intervalMs;
  const next = changed ? intervalMs : Math.min(maxIntervalMs, Math.round(previous * backoffFactor));
  ctx.schedules.poll.set(requestId, { nextAt: ctx.clock.now() + next, intervalMs: next });
}

// ---- applying what the exchange says ---------------------------------------------------------

type Applied = { request: DeskRequest; changed: (keyof NonNullable<DeskRequest['remote']>)[]; final: RemoteView['final'] };

/**
 * Persists what changed in the request's remote status (and its final state), then audits and
 * notifies each change once. Returns true when something was reported.
 */
export async function applyRemote(ctx: EngineContext, requestId: string, view: RemoteView): Promise<boolean> {
  const now = ctx.clock.now();
  const applied = await ctx.requests.mutate<Applied | undefined>(requestId, (current) => {
    if (current === undefined || current.state !== 'submitted') return { result: undefined };
    const changed = changedFields(current.remote, view);
    const changes: RecordChanges = { remote: remoteStatusOf(view), result: view.result ?? current.result };
    const resultChanged = JSON.stringify(changes.result) !== JSON.stringify(current.result);
    if (view.final === null && changed.length === 0 && !resultChanged) return { result: undefined };
    const next =
      view.final === 'completed'
        ? mustAdvance(current, 'complete', now, changes)
        : view.final === 'failed'
          ? mustAdvance(current, 'fail', now, { ...changes, failure: { stage: 'final_status', reason: finalFailureReason(current.kind, view), exchangeMessage: view.result?.cancel_reason ?? null } })
          : mustAdvance(current, 'status_changed', now, changes);
    return { next, result: { request: next, changed, final: view.final } };
  });
  if (applied === undefined) return false;
  await report(ctx, applied);
  return applied.changed.length > 0;
}

async function report(ctx: EngineContext, { request, changed, final }: Applied): Promise<void> {
  const remote = request.remote!;
  if (changed.length > 0) {
    await audit(ctx, 'status.changed', EXCHANGE, request.id, { changed, ...remote });
    emit(ctx, request, { type: 'status.changed', changed, ...remote });
  }
  if (final === null) return;
  ctx.schedules.poll.delete(request.id);
  if (final === 'completed') {
    await audit(ctx, 'request.completed', EXCHANGE, request.id, { status: remote.status, result: request.result });
    emit(ctx, request, { type: 'request.completed' });
  } else {
    await audit(ctx, 'request.failed', EXCHANGE, request.id, { ...request.failure });
    emit(ctx, request, { type: 'execution.failed', ...request.failure! });
  }
}

async function stopPolling(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const now = ctx.clock.now();
  const stopped = await persistStep(ctx, request.id, ['submitted'], 'status_changed', () => ({ pollingStoppedAt: now }));
  if (stopped === undefined) return false;
  ctx.schedules.poll.delete(request.id);
  await audit(ctx, 'polling.stopped', SYSTEM, request.id, { submittedAt: request.execution!.submittedAt, lastStatus: request.remote?.status ?? null });
  emit(ctx, stopped, { type: 'polling.stopped', status: stopped.remote?.status ?? null });
  return true;
}
