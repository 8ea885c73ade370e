/**
 * The one runner of executions: read the record, `decide` (pure), persist what it says (the write,
 * then its audit lines and events), and only then perform the effect, whose result is the next
 * observation. It holds the request's lock, so a last approval, a tick, a recovery and a person's
 * decision never work on one request at once; for a trade also the quote key (nobody quotes on it
 * between our quote and our order), for a withdrawal its terms (claims.ts).
 */
import { mustAdvance, type DeskRequest } from '../../domain/record.js';
import { quoteKey, type TradeSnapshot } from '../../domain/request.js';
import { withTerms } from './look-alikes.js';
import { audit, emit, stamp, type EngineContext } from '../context.js';
import { applyRemote } from '../following/poll.js';
import { decide, type Facts, type Observation, type Step } from './decide.js';
import { perform } from './effects.js';

/** More steps than any legal path needs (re-quotes and resends are bounded well below it). */
const MAX_STEPS = 25;

/** Executes the request as far as it can go now. */
export function execute(ctx: EngineContext, requestId: string): Promise<void> {
  return ctx.requestLocks.run(requestId, () => executeHoldingLock(ctx, requestId));
}

/**
 * Like execute, for a caller that holds the request's lock. `first` is the first observation
 * (a person's decision); `persisted` hears of the first write, so a caller can answer a person
 * before the exchange call that follows it.
 */
export async function executeHoldingLock(ctx: EngineContext, requestId: string, first: Observation = { kind: 'due' }, persisted?: (record: DeskRequest) => void): Promise<void> {
  const record = await ctx.requests.get(requestId);
  if (record === undefined) return;
  const run = () => runSteps(ctx, requestId, first, persisted);
  if (record.kind === 'trade') return ctx.quotes.withKey(quoteKey(record.snapshot as TradeSnapshot), run);
  return withTerms(ctx, record, run);
}

async function runSteps(ctx: EngineContext, requestId: string, first: Observation, persisted?: (record: DeskRequest) => void): Promise<void> {
  let observation = first;
  for (let step = 0; step < MAX_STEPS; step++) {
    const record = await ctx.requests.get(requestId);
    if (record === undefined) return;
    const decided = decide(record, ctx.clock.now(), observation, factsFor(ctx, record));
    const saved = await persist(ctx, record, decided);
    if (saved === undefined) return;
    if (step === 0) persisted?.(saved);
    if (saved.state === 'submitted' && record.state !== 'submitted') await follow(ctx, saved, observation);
    const next = await perform(ctx, saved, decided.effect);
    if (next !== undefined) observation = next;
    // Nothing to perform: go on only if the state moved to one that may act at once (a re-quote).
    else if (decided.write?.command !== undefined && saved.state !== record.state) observation = { kind: 'due' };
    else return;
  }
  ctx.logger.warn('request not settled after the maximum number of steps', { requestId });
}

function factsFor(ctx: EngineContext, record: DeskRequest): Facts {
  const trade = record.kind === 'trade' ? (record.snapshot as TradeSnapshot) : undefined;
  const measured = ctx.exchange.clockOffsetMs?.();
  return {
    config: ctx.config,
    policy: ctx.policy,
    quoteSuperseded: trade !== undefined && ctx.quotes.isSuperseded(quoteKey(trade), trade.quote.quoteId),
    newKey: () => ctx.ids.uuid(),
    // The exchange accepts our signatures only within its clock skew, so a larger reading is not its
    // clock (a proxy's Date header, say): the window then falls back to the configured skew.
    measuredOffsetMs: measured === undefined || Math.abs(measured) > ctx.config.clockSkewMs ? null : Math.round(measured),
  };
}

/**
 * Persists the step's write if the record is still the one decided on (else someone else moved
 * it: nothing is written, undefined), then its audit lines (durable) and events. A step without a
 * write changes nothing and returns the record as it was.
 */
async function persist(ctx: EngineContext, record: DeskRequest, step: Step): Promise<DeskRequest | undefined> {
  let saved = record;
  if (step.write !== undefined) {
    const { command, changes } = step.write;
    const now = ctx.clock.now();
    const written = await ctx.requests.mutate<DeskRequest | undefined>(record.id, (current) => {
      if (current === undefined || current.updatedAt !== record.updatedAt || current.state !== record.state) return { result: undefined };
      const next = command === undefined ? { ...current, ...changes, updatedAt: now } : mustAdvance(current, command, now, changes);
      // What must reach Slack is written with the change itself: a crash cannot keep one without the other.
      return { next, result: next, outbox: step.events.map((event) => stamp(ctx, next, event)) };
    });
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

/** Handed to the exchange: polling follows it from now, starting from what the answer showed. */
async function follow(ctx: EngineContext, submitted: DeskRequest, observation: Observation): Promise<void> {
  ctx.schedules.poll.set(submitted.id, { nextAt: ctx.clock.now() + ctx.config.poll.intervalMs, intervalMs: ctx.config.poll.intervalMs });
  if (observation.kind === 'answer' && observation.answer.kind === 'submitted' && observation.answer.view !== undefined) await applyRemote(ctx, submitted.id, observation.answer.view);
}
