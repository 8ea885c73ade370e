/**
 * The one runner of executions: read the record, `decide` (pure), persist what it says (the write,
 * then its audit lines and events), and only then perform the effect, whose result is the next
 * observation. It holds the request's lock, so a last approval, a tick, a recovery and a person's
 * decision of this process never work on one request at once; for a trade also the quote key
 * (nobody quotes on it between our quote and our order), for a withdrawal its terms (look-alikes.ts;
 * across replicas the terms claim, released here once the request is past doubt).
 * Across replicas the execution lease does the same (lease.ts): it is written with the send or
 * the look, kept alive while that runs (lease-keeper.ts), and no exchange call ever runs inside a
 * store write (a mutate's function only computes the next record).
 */
import { canonicalJson } from '../../domain/canonical.js';
import { errorText } from '../../domain/error-text.js';
import { changeFields, isExecuted, mustAdvance, type RequestRecord } from '../../domain/record.js';
import { quoteKey, type TradeSnapshot } from '../../domain/request.js';
import { WriteOutcomeUnknownError } from '../../ports/store.js';
import { holdTerms, releaseTerms } from './look-alikes.js';
import { audit, emit, SYSTEM, stamp, type EngineContext } from '../context.js';
import { startPolling } from '../polling/poll.js';
import { quoteBookOf } from './quote-book.js';
import { nextStep, type Effect, type Facts, type Observation, type Step } from './next-step.js';
import { perform } from './effects.js';
import { sameLease } from './lease.js';
import { keepLease } from './lease-keeper.js';

/** More steps than any legal path needs (re-quotes and resends are bounded well below it). */
const MAX_STEPS = 25;

/** Executes the request as far as it can go now. */
export function execute(ctx: EngineContext, requestId: string): Promise<void> {
  return ctx.requestLocks.run(requestId, () => drain(executionSteps(ctx, requestId)));
}

/**
 * The run of a request's steps from `first` (a person's settlement, say), for a caller that holds
 * the request's lock: each record persisted is yielded as soon as it is written, so the caller can
 * answer with it (before the exchange call that follows) and drain the rest. The run holds the
 * request's quote key (a trade) or terms (a withdrawal) until it ends.
 */
export async function* executionSteps(
  ctx: EngineContext,
  requestId: string,
  first: Observation = { kind: 'due' },
): AsyncGenerator<RequestRecord, void> {
  const record = await ctx.requests.get(requestId);
  if (record === undefined) return;
  const release =
    record.kind === 'trade'
      ? await quoteBookOf(ctx).hold(quoteKey(record.snapshot as TradeSnapshot))
      : await holdTerms(ctx, record);
  try {
    yield* runSteps(ctx, requestId, first);
  } finally {
    release();
  }
}

/** Runs what is left of a run to its end. */
export async function drain(steps: AsyncGenerator<RequestRecord, void>): Promise<void> {
  for await (const _ of steps);
}

async function* runSteps(
  ctx: EngineContext,
  requestId: string,
  first: Observation,
): AsyncGenerator<RequestRecord, void> {
  let observation = first;
  for (let step = 0; step < MAX_STEPS; step++) {
    const record = await ctx.requests.get(requestId);
    if (record === undefined) return;
    const decided = nextStep(record, ctx.clock.now(), observation, factsFor(ctx, record));
    const saved = await persist(ctx, record, decided);
    if (saved === undefined) return;
    // A step that wrote nothing decided nothing (a request another replica holds, say).
    if (decided.write !== undefined) yield saved;
    if (decided.startPolling) await startPolling(ctx, saved, decided.startPolling.view);
    if (decided.releaseTerms) await releaseTerms(ctx, saved);
    const next = await performUnderLease(ctx, saved, decided.effect);
    if (next === LOST || next === undefined) return;
    observation = next;
  }
  ctx.logger.warn('request not settled after the maximum number of steps', { requestId });
}

function factsFor(ctx: EngineContext, record: RequestRecord): Facts {
  const trade = record.kind === 'trade' ? (record.snapshot as TradeSnapshot) : undefined;
  const measured = ctx.exchange.clockOffsetMs?.();
  return {
    config: ctx.config,
    policy: ctx.policy,
    quoteSuperseded: trade !== undefined && quoteBookOf(ctx).isSuperseded(quoteKey(trade), trade.quote.quoteId),
    newKey: () => ctx.ids.uuid(),
    replica: ctx.replica,
    // The exchange accepts our signatures only within its clock skew, so a larger reading is not its
    // clock (a proxy's Date header, say): the window then falls back to the configured skew.
    measuredOffsetMs:
      measured === undefined || Math.abs(measured) > ctx.config.clockSkewMs ? null : Math.round(measured),
  };
}

const LOST = Symbol('lease lost');

/**
 * Performs the effect; while it runs, the lease this replica holds on the request is renewed. If
 * the lease was lost meanwhile (taken over, or run out with the database unreachable), nothing of
 * the effect's answer is recorded and the run stops: the request is the new holder's, or the
 * unknown-outcome path's of whoever takes it over.
 */
async function performUnderLease(
  ctx: EngineContext,
  record: RequestRecord,
  effect: Effect,
): Promise<Observation | undefined | typeof LOST> {
  if (effect.kind === 'none') return undefined;
  // decide asks for an effect only of a request it executes: approved or past it, its execution there.
  if (!isExecuted(record))
    throw new Error(`request ${record.id}: effect ${effect.kind} asked of a ${record.state} request`);
  const lease = record.execution.lease;
  if (lease === null || lease.holder !== ctx.replica) return perform(ctx, record, effect);
  const keeper = keepLease(ctx, record.id, lease);
  let next: Observation | undefined;
  try {
    next = await perform(ctx, record, effect);
  } finally {
    await keeper.stop();
  }
  const lost = keeper.lost;
  if (lost === null) return next;
  const data = { holder: ctx.replica, ...lost, effect: effect.kind, state: record.state };
  ctx.logger.error(
    'execution lease lost while the exchange was being called; recording nothing, whoever takes the request over looks on the exchange first',
    { requestId: record.id, ...data },
  );
  await audit(ctx, 'lease.lost', SYSTEM, record.id, data).catch((err: unknown) =>
    ctx.logger.error('could not audit the lost lease', { requestId: record.id, error: errorText(err) }),
  );
  return LOST;
}

/**
 * Persists the step's write if the record is still the one decided on, lease included (else
 * someone else moved it: nothing is written, undefined), then its audit lines (durable) and
 * events. A step without a write changes nothing and returns the record as it was.
 */
async function persist(ctx: EngineContext, record: RequestRecord, step: Step): Promise<RequestRecord | undefined> {
  let saved = record;
  if (step.write !== undefined) {
    const written = await write(ctx, record, step);
    if (written === undefined) return undefined;
    saved = written;
  } else {
    for (const event of step.events) emit(ctx, saved, event);
  }
  await Promise.all(step.audit.map((line) => audit(ctx, line.type, line.actor, record.id, line.data)));
  if (step.events.length > 0) ctx.notices.kick();
  if (step.log) ctx.logger[step.log.level](step.log.message, step.log.data);
  return saved;
}

/**
 * The step's write, over the record as read. When the store lost the answer to the write
 * (WriteOutcomeUnknownError), the record read back says whether it landed: if it did, the run goes
 * on from it (a claimed send is sent: it was persisted before the call, as always); if not,
 * nothing happened and the next tick decides again.
 */
async function write(ctx: EngineContext, record: RequestRecord, step: Step): Promise<RequestRecord | undefined> {
  const { command, changes } = step.write!;
  const now = ctx.clock.now();
  let intended: RequestRecord | undefined;
  try {
    return await ctx.requests.mutate<RequestRecord | undefined>(record.id, (current) => {
      if (
        current === undefined ||
        current.updatedAt !== record.updatedAt ||
        current.state !== record.state ||
        !sameLease(current, record)
      )
        return { result: undefined };
      const next =
        command === undefined ? changeFields(current, now, changes) : mustAdvance(current, command, now, changes);
      intended = next;
      // What must reach Slack is written with the change itself: a crash cannot keep one without the other.
      return { next, result: next, outbox: step.events.map((event) => stamp(ctx, next, event)) };
    });
  } catch (err) {
    if (!(err instanceof WriteOutcomeUnknownError) || intended === undefined) throw err;
    const stored = await ctx.requests.get(record.id);
    const landed = stored !== undefined && canonicalJson(stored) === canonicalJson(intended);
    ctx.logger.warn(
      `the store lost the answer to a write; read back, it ${landed ? 'landed: going on' : 'did not land: the next tick decides again'}`,
      { requestId: record.id, command: command ?? null, error: errorText(err) },
    );
    return landed ? stored : undefined;
  }
}
