// Follows submitted withdrawals and orders until final, by budgeted list walks and a few single reads.
// A change is persisted as "last reported" before it is notified (once, across restarts); a 404 is never
// an outcome. The argument: docs/execution.md "Polling".
import {
  isExecuted,
  mustAdvance,
  type RequestRecord,
  type ExecutedRequest,
  type RecordChanges,
} from '../../domain/record.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import { audit, emit, EXCHANGE, stamp, SYSTEM, type EngineContext } from '../context.js';
import { changedFields, finalFailureReason, remoteStatusOf, type RemoteView } from './remote-changes.js';
import { POLLED_KINDS, schedulesOf, type PolledKind, type Sweep } from './poll-schedules.js';
import { closeSweep, startSweep, unreached, walk } from './sweep.js';

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

export async function pollDue(ctx: EngineContext, live: readonly RequestRecord[]): Promise<PollSummary> {
  const summary: PollSummary = { polled: 0, calls: 0, changed: 0, stopped: 0 };
  const polled = live.filter(
    (r): r is ExecutedRequest =>
      isExecuted(r) && r.state === 'submitted' && r.pollingStoppedAt === null && r.execution.exchangeId !== null,
  );
  const now = ctx.clock.now();
  const active: ExecutedRequest[] = [];
  for (const request of polled) {
    if (now - (request.execution.submittedAt ?? now) > ctx.config.poll.maxAgeMs)
      summary.stopped += (await stopPolling(ctx, request)) ? 1 : 0;
    else active.push(request);
  }
  // The kind that goes first changes every cycle, so a large sweep of one kind cannot starve another.
  const first = schedulesOf(ctx).pollCycle++ % POLLED_KINDS.length;
  for (const kind of [...POLLED_KINDS.slice(first), ...POLLED_KINDS.slice(0, first)]) {
    await pollKind(
      ctx,
      kind,
      active.filter((r) => r.kind === kind),
      summary,
    );
  }
  return summary;
}

/** Bounded single reads first (those the lists cannot reach never starve), then the list walk under way or a new one. */
async function pollKind(
  ctx: EngineContext,
  kind: PolledKind,
  ofKind: ExecutedRequest[],
  summary: PollSummary,
): Promise<void> {
  const now = ctx.clock.now();
  const isDue = (r: RequestRecord) => (schedulesOf(ctx).poll.get(r.id)?.nextAt ?? 0) <= now;
  const single = (r: RequestRecord) => kind !== 'fiat_withdrawal' && schedulesOf(ctx).poll.get(r.id)?.single === true;
  const read = new Set<string>();
  for (const request of ofKind.filter((r) => isDue(r) && single(r)).slice(0, ctx.config.poll.singleReadsPerCycle)) {
    if (await readOne(ctx, request, summary)) read.add(request.id);
  }
  const byExchangeId = new Map(ofKind.map((r) => [r.execution.exchangeId!, r]));
  let walking: Sweep | undefined;
  const onView = async (view: RemoteView) => {
    const request = byExchangeId.get(view.exchangeId);
    if (request === undefined || read.has(request.id)) return;
    read.add(request.id);
    // Next due counted from the sweep's start: what one sweep read falls due together, for one sweep again.
    await applyAndReschedule(ctx, request, view, summary, walking!.startedAt);
  };
  // At most two walks a cycle: the one under way, and one for what became due while it went on.
  for (let walks = 0; walks < 2; walks++) {
    let sweep = current(ctx, kind, byExchangeId);
    if (sweep === undefined) {
      const targets = ofKind.filter((r) => isDue(r) && !single(r) && !read.has(r.id));
      if (targets.length === 0) return;
      try {
        sweep = startSweep(ctx, kind, targets);
      } catch (err) {
        if (!isExchangeError(err)) throw err;
        return listFailed(
          ctx,
          kind,
          targets.map((r) => r.id),
          err.message,
        );
      }
      schedulesOf(ctx).sweeps.set(kind, sweep);
    }
    walking = sweep;
    let over: boolean;
    try {
      over = await walk(ctx, sweep, () => summary.calls++, onView);
    } catch (err) {
      if (!isExchangeError(err)) throw err;
      schedulesOf(ctx).sweeps.delete(kind);
      await closeSweep(sweep).catch(() => undefined);
      return listFailed(ctx, kind, idsOf(unreached(sweep), byExchangeId), err.message);
    }
    if (!over) return;
    schedulesOf(ctx).sweeps.delete(kind);
    await closeSweep(sweep);
    // What a whole walk did not see, the list cannot reach: read on its own from now on (fiat has no single read).
    for (const id of idsOf(unreached(sweep), byExchangeId)) {
      if (kind === 'fiat_withdrawal') reschedule(ctx, id, false);
      else markSingle(ctx, id);
    }
  }
}

/** Dropped once every request it looks for has finished, or older than the longest interval (a cursor may not live for ever). */
function current(ctx: EngineContext, kind: PolledKind, polled: Map<string, RequestRecord>): Sweep | undefined {
  const sweep = schedulesOf(ctx).sweeps.get(kind);
  if (sweep === undefined) return undefined;
  const wanted = idsOf(unreached(sweep), polled).length > 0;
  if (wanted && ctx.clock.now() - sweep.startedAt <= ctx.config.poll.maxIntervalMs) return sweep;
  schedulesOf(ctx).sweeps.delete(kind);
  void closeSweep(sweep).catch(() => undefined);
  return undefined;
}

function listFailed(ctx: EngineContext, kind: PolledKind, requestIds: string[], error: string): void {
  ctx.logger.warn('polling list failed; backing off', { kind, error });
  for (const id of requestIds) reschedule(ctx, id, false);
}

function idsOf(exchangeIds: string[], byExchangeId: Map<string, RequestRecord>): string[] {
  return exchangeIds.flatMap((e) => {
    const request = byExchangeId.get(e);
    return request === undefined ? [] : [request.id];
  });
}

/** A request the lists cannot reach: read on its own, now and each time it is due. */
function markSingle(ctx: EngineContext, requestId: string): void {
  const schedule = schedulesOf(ctx).poll.get(requestId);
  schedulesOf(ctx).poll.set(requestId, {
    nextAt: schedule?.nextAt ?? 0,
    intervalMs: schedule?.intervalMs ?? ctx.config.poll.intervalMs,
    single: true,
  });
}

/** A single read if the budget allows (else it stays due for the next cycle). True when read. */
async function readOne(ctx: EngineContext, request: ExecutedRequest, summary: PollSummary): Promise<boolean> {
  if (!ctx.pollBudget.tryTake()) return false;
  summary.calls++;
  const id = request.execution.exchangeId!;
  try {
    const view = request.kind === 'trade' ? await ctx.exchange.order(id) : await ctx.exchange.cryptoWithdrawal(id);
    await applyAndReschedule(ctx, request, view, summary);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    if (err.kind === 'not_found' && (await notFound(ctx, request, err.message))) return true;
    ctx.logger.warn('polling read failed; backing off', { requestId: request.id, error: err.message });
    reschedule(ctx, request.id, false);
  }
  return true;
}

/** Backs off as any failed read until the bound (`notFoundReads` in a row over `notFoundForMs`), then stops and tells a person. */
async function notFound(ctx: EngineContext, request: ExecutedRequest, message: string): Promise<boolean> {
  const now = ctx.clock.now();
  const previous = schedulesOf(ctx).poll.get(request.id)?.notFound;
  const streak = { since: previous?.since ?? now, reads: (previous?.reads ?? 0) + 1 };
  const { notFoundReads, notFoundForMs } = ctx.config.poll;
  if (streak.reads >= notFoundReads && now - streak.since >= notFoundForMs) {
    return stopPolling(ctx, request, {
      reason: 'not_found',
      exchangeMessage: message,
      reads: streak.reads,
      since: streak.since,
    });
  }
  ctx.logger.warn('polling read: the exchange says the record does not exist; backing off', {
    requestId: request.id,
    reads: streak.reads,
    error: message,
  });
  reschedule(ctx, request.id, false);
  schedulesOf(ctx).poll.get(request.id)!.notFound = streak;
  return true;
}

/** `listedFrom`: seen by the sweep started then (no longer a single read); absent: read alone, it stays one. */
async function applyAndReschedule(
  ctx: EngineContext,
  request: RequestRecord,
  view: RemoteView,
  summary: PollSummary,
  listedFrom?: number,
): Promise<void> {
  summary.polled++;
  const changed = await applyRemote(ctx, request.id, view);
  if (changed) summary.changed++;
  reschedule(ctx, request.id, changed, listedFrom === undefined ? {} : { from: listedFrom, single: false });
}

function reschedule(
  ctx: EngineContext,
  requestId: string,
  changed: boolean,
  how: { from?: number; single?: boolean } = {},
): void {
  const { intervalMs, backoffFactor, maxIntervalMs } = ctx.config.poll;
  const previous = schedulesOf(ctx).poll.get(requestId);
  const next = changed
    ? intervalMs
    : Math.min(maxIntervalMs, Math.round((previous?.intervalMs ?? intervalMs) * backoffFactor));
  const single = how.single ?? previous?.single ?? false;
  schedulesOf(ctx).poll.set(requestId, {
    nextAt: (how.from ?? ctx.clock.now()) + next,
    intervalMs: next,
    ...(single ? { single: true } : {}),
  });
}

/** Handed to the exchange (execution/runner.ts): followed from now, starting from what the answer showed. */
export async function startPolling(
  ctx: EngineContext,
  submitted: RequestRecord,
  view: RemoteView | undefined,
): Promise<void> {
  schedulesOf(ctx).poll.set(submitted.id, {
    nextAt: ctx.clock.now() + ctx.config.poll.intervalMs,
    intervalMs: ctx.config.poll.intervalMs,
  });
  if (view !== undefined) await applyRemote(ctx, submitted.id, view);
}

type Applied = {
  request: RequestRecord;
  changed: (keyof NonNullable<RequestRecord['remote']>)[];
  final: RemoteView['final'];
};

/** Persists the change (and final state) first, then audits and notifies each once; true when something was reported. */
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
          ? mustAdvance(current, 'fail', now, {
              ...changes,
              failure: {
                stage: 'final_status',
                reason: finalFailureReason(current.kind, view),
                exchangeMessage: view.result?.cancelReason ?? null,
              },
            })
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
  schedulesOf(ctx).poll.delete(request.id);
  if (final === 'completed') {
    await audit(ctx, 'request.completed', EXCHANGE, request.id, { status: remote.status, result: request.result });
    emit(ctx, request, { type: 'request.completed' });
  } else {
    await audit(ctx, 'request.failed', EXCHANGE, request.id, { ...request.failure });
    emit(ctx, request, { type: 'execution.failed', ...request.failure! });
  }
}

/** Why polling stopped: its maximum age, or the exchange answering 404 past the bound. */
type StopReason =
  { reason: 'max_age' } | { reason: 'not_found'; exchangeMessage: string; reads: number; since: number };

/** Persisted with its notice in one write; the request stays submitted: stopping settles nothing about its outcome. */
async function stopPolling(
  ctx: EngineContext,
  request: ExecutedRequest,
  why: StopReason = { reason: 'max_age' },
): Promise<boolean> {
  const now = ctx.clock.now();
  const stopped = await ctx.requests.mutate<RequestRecord | undefined>(request.id, (current) => {
    if (current === undefined || current.state !== 'submitted' || current.pollingStoppedAt !== null)
      return { result: undefined };
    const next = mustAdvance(current, 'status_changed', now, { pollingStoppedAt: now });
    const notice =
      why.reason === 'not_found'
        ? { reason: 'not_found' as const, exchangeMessage: why.exchangeMessage }
        : { reason: 'max_age' as const };
    return {
      next,
      result: next,
      outbox: [stamp(ctx, next, { type: 'polling.stopped', status: next.remote?.status ?? null, ...notice })],
    };
  });
  if (stopped === undefined) return false;
  schedulesOf(ctx).poll.delete(request.id);
  const detail =
    why.reason === 'not_found'
      ? { notFoundReads: why.reads, notFoundSince: why.since, exchangeMessage: why.exchangeMessage }
      : {};
  await audit(ctx, 'polling.stopped', SYSTEM, request.id, {
    reason: why.reason,
    submittedAt: request.execution.submittedAt,
    lastStatus: request.remote?.status ?? null,
    ...detail,
  });
  ctx.notices.kick();
  return true;
}
