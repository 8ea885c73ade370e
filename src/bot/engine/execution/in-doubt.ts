/**
 * An unknown outcome, decided without I/O. The decider (decide.ts) opens the doubt when a send's
 * answer is lost; the runner (runner.ts) looks on the exchange when `nextLookAt` comes, and
 * `decideLook` says from what it saw what the request does next. Every row of this is a table test
 * (test/bot/engine/execution/in-doubt.test.ts).
 *
 *   found by its key (client_order_id, or a listed request_id of ours)  -> adopt it
 *   a withdrawal carrying our desk reference (search.ts, attribution.ts) -> adopt it, whenever it appears
 *   a withdrawal without a note, one candidate on its terms:
 *     its creation not provably after our first send started            -> ask a person, its time shown (never adopted)
 *     created while our call was open, or the settle window has closed  -> adopt it
 *   a withdrawal, more than one candidate                                -> ask a person which (never the earliest)
 *   a withdrawal, nothing, the settle window still open                  -> look again soon
 *   a withdrawal, nothing, the settle window closed                      -> ask a person: look again, send again, mark as not sent
 *   a withdrawal, nothing in the window but one created after it         -> ask a person whether it is ours (never adopted)
 *   a withdrawal, the exchange unreadable past the settle window         -> ask a person: look again, mark as not sent
 *   an order, nothing, its quote dead past the clock offset              -> no new order: re-quote (same client_order_id)
 *   an order that may exist (a duplicate, a resend refused after an unknown
 *     outcome, a trade that could not go on), nothing                    -> look again; ask a person once the window closed
 *   an order, nothing, sends of its client_order_id left                 -> send it again (the exchange refuses a duplicate id)
 *   a bank account removal, the account still there, sends left          -> send it again (a second removal answers 404)
 *   the exchange could not be read, or a list was cut short              -> look again later; nothing is proven
 * While a person is asked the bot keeps looking, less often: a withdrawal that appears is adopted
 * and the question goes; a second candidate turns "not found" into "which one".
 */
import type { Attempt, Candidate, DeskRequest, ExecutedRequest, InDoubt, PersonQuestion } from '../../domain/record.js';
import type { EngineConfig } from '../engine-config.js';

/** What one look on the exchange saw. */
export type Look =
  /** The request's own record: by key, by our desk reference, or (a bank account removal) the account is gone. */
  | { kind: 'found'; exchangeId: string; by?: 'key' | 'reference' }
  /**
   * Records that match the request's terms and no other request owns (withdrawals only), inside
   * the window; `late`: matching records created after the window closed, seen once the window has
   * closed. A late one may be our send committed very late, or someone else's: never adopted,
   * only shown to the person deciding, so nobody sends again blind.
   */
  | { kind: 'candidates'; candidates: Candidate[]; late?: Candidate[] }
  /** Nothing could be proven: the exchange failed, or listed more than a search reads. */
  | { kind: 'inconclusive'; message: string; cut: boolean };

export type LookDecision =
  | { kind: 'adopt'; exchangeId: string; why: 'key' | 'reference' | 'sole_candidate_in_call' | 'sole_candidate_window_closed' }
  | { kind: 'wait'; nextLookAt: number }
  | { kind: 'ask'; question: PersonQuestion; nextLookAt: number }
  | { kind: 'requote'; message: string }
  | { kind: 'resend'; key: string }
  /** A withdrawal's last send was refused and nothing else is there: the refusal stands. */
  | { kind: 'refusal_stands' };

/**
 * The doubt opened when a send's outcome became unknown. The window is fixed here from the sends,
 * on the exchange's clock: from the first send minus the clock offset allowed to the last send
 * plus the settle window. It never grows with our clock.
 */
export function openInDoubt(record: DeskRequest, now: number, config: EngineConfig, measuredOffsetMs: number | null): InDoubt {
  const attempts = record.execution?.attempts ?? [];
  const first = attempts[0]?.startedAt ?? now;
  const last = attempts.at(-1)?.startedAt ?? now;
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  return {
    since: now,
    window: { from: Math.max(0, first + offset - tolerance), to: last + offset + config.unknownSettleWindowMs + tolerance },
    settleUntil: last + config.unknownSettleWindowMs,
    looks: 0,
    lastLookAt: null,
    // Look at once: a write committed before the connection dropped is usually listed already.
    nextLookAt: now,
    question: null,
    excluded: record.execution?.inDoubt?.excluded ?? [],
    pendingDecision: null,
    stoppedBecause: null,
  };
}

/** The request's doubt as stored; one opened from its sends for a record stored before doubts were (an older version). */
export function currentDoubt(record: ExecutedRequest, now: number, config: EngineConfig): InDoubt {
  const execution = record.execution;
  return execution.inDoubt ?? openInDoubt(record, execution.unknownSince ?? now, config, execution.clockOffsetMs);
}

/**
 * Where the exchange's clock stands to ours: the offset as measured (0 when never measured), and
 * how far off that may be (the measurement's tolerance, or the whole clock skew allowed without one).
 */
export function exchangeClock(config: EngineConfig, measuredOffsetMs: number | null): { offset: number; tolerance: number } {
  return { offset: measuredOffsetMs ?? 0, tolerance: measuredOffsetMs === null ? config.clockSkewMs : config.offsetToleranceMs };
}

/** What the request does after a look that started at `lookedAt` (our clock). */
export function decideLook(record: ExecutedRequest, inDoubt: InDoubt, look: Look, lookedAt: number, config: EngineConfig, measuredOffsetMs: number | null): LookDecision {
  if (look.kind === 'found') return { kind: 'adopt', exchangeId: look.exchangeId, why: look.by ?? 'key' };
  const again = inDoubt.question === null ? config.lookIntervalMs : config.personWaitLookIntervalMs;
  const windowClosed = lookedAt >= inDoubt.settleUntil;
  const withdrawal = record.kind === 'crypto_withdrawal' || record.kind === 'fiat_withdrawal';
  if (look.kind === 'inconclusive') {
    // Looks that prove nothing past the window would go on forever: a person checks the exchange.
    if (withdrawal && windowClosed) return { kind: 'ask', question: question('unreadable', [], inDoubt, lookedAt, look.message), nextLookAt: lookedAt + config.reconcileIntervalMs };
    return { kind: 'wait', nextLookAt: lookedAt + config.reconcileIntervalMs };
  }
  const attempts = record.execution.attempts;
  const last = attempts.at(-1)!;
  if (!withdrawal) return decideByKey(record, inDoubt, last, lookedAt, config);
  const candidates = look.candidates.filter((c) => !inDoubt.excluded.includes(c.exchangeId));
  if (candidates.length > 1) return { kind: 'ask', question: question('ambiguous', candidates, inDoubt, lookedAt), nextLookAt: lookedAt + config.personWaitLookIntervalMs };
  if (candidates.length === 1) {
    const only = candidates[0]!;
    // Perhaps made by hand just before our send: its terms and time prove nothing, so a person says.
    if (!provenAfterSend(only, attempts[0]!, config, measuredOffsetMs)) return { kind: 'ask', question: question('unproven', candidates, inDoubt, lookedAt), nextLookAt: lookedAt + again };
    if (createdWhileCallOpen(only, last, config, measuredOffsetMs)) return { kind: 'adopt', exchangeId: only.exchangeId, why: 'sole_candidate_in_call' };
    if (windowClosed) return { kind: 'adopt', exchangeId: only.exchangeId, why: 'sole_candidate_window_closed' };
    return { kind: 'wait', nextLookAt: Math.min(lookedAt + again, inDoubt.settleUntil) };
  }
  if (last.outcome === 'refused') return { kind: 'refusal_stands' };
  if (!windowClosed) return { kind: 'wait', nextLookAt: Math.min(lookedAt + again, inDoubt.settleUntil) };
  const late = (look.late ?? []).filter((c) => !inDoubt.excluded.includes(c.exchangeId));
  if (late.length > 0) return { kind: 'ask', question: question('ambiguous', late, inDoubt, lookedAt), nextLookAt: lookedAt + config.personWaitLookIntervalMs };
  return { kind: 'ask', question: question('not_found', [], inDoubt, lookedAt), nextLookAt: lookedAt + config.personWaitLookIntervalMs };
}

/**
 * An order is matched by its client_order_id only, so there is no look-alike: absence is absence
 * once no order with it can still appear. The exchange refuses an expired quote; a look that
 * started after the quote died (plus the clock offset allowed) and found nothing proves no new
 * order: re-quote, keeping the client_order_id (so is a resend refused as "quote cannot be used":
 * if an order of it exists, the exchange refuses the next as a duplicate). But an order of it may
 * still be committed late: when the exchange said one exists (a duplicate client_order_id),
 * refused a resend after an unknown outcome otherwise, or the trade could not go on
 * (`stoppedBecause`), it is only looked for, never re-quoted or failed, and a person is asked
 * once the settle window has closed.
 * A bank account removal may be sent again too: removing a removed account answers 404, "gone".
 */
function decideByKey(record: ExecutedRequest, inDoubt: InDoubt, last: Attempt, lookedAt: number, config: EngineConfig): LookDecision {
  const sameKey = record.execution.attempts.filter((a) => a.key === last.key);
  if (record.kind === 'trade') {
    const doubted = sameKey.slice(0, -1).some((a) => a.outcome === 'unknown' || a.outcome === 'duplicate' || a.outcome === 'in_flight');
    // "Quote cannot be used" re-quotes (the client_order_id is kept, so an order of it makes the exchange refuse the next as a duplicate).
    const mayExist = sameKey.some((a) => a.outcome === 'duplicate') || (doubted && last.outcome === 'refused');
    if (mayExist || inDoubt.stoppedBecause !== null) return untilPerson(inDoubt, lookedAt, config);
  }
  if (last.outcome === 'refused' || last.outcome === 'quote_unusable') return last.outcome === 'quote_unusable' ? { kind: 'requote', message: last.message ?? 'The quote could not be used.' } : { kind: 'refusal_stands' };
  const settledAt = last.startedAt + config.reconcileSettleMs;
  if (lookedAt < settledAt) return { kind: 'wait', nextLookAt: settledAt };
  const deadAt = last.quote === null ? undefined : last.quote.expiresAt + config.clockSkewMs;
  if (deadAt !== undefined && lookedAt >= deadAt) {
    return { kind: 'requote', message: `The quote ${last.quote!.quoteId} expired at ${new Date(last.quote!.expiresAt).toISOString()} and no order carries this request's client order id.` };
  }
  // A removal is sent again at every look: removing it twice cannot do harm; orders are bounded.
  if (record.kind === 'bank_account_removal' || sameKey.length < config.maxSendsPerKey) return { kind: 'resend', key: last.key };
  const next = lookedAt + config.reconcileIntervalMs;
  return { kind: 'wait', nextLookAt: deadAt !== undefined && deadAt > lookedAt ? Math.min(next, deadAt) : next };
}

/** Look again until the settle window closes, then ask a person (Look again / Mark as not placed), looking less often. */
function untilPerson(inDoubt: InDoubt, lookedAt: number, config: EngineConfig): LookDecision {
  if (lookedAt < inDoubt.settleUntil) return { kind: 'wait', nextLookAt: Math.min(lookedAt + config.reconcileIntervalMs, inDoubt.settleUntil) };
  return { kind: 'ask', question: question('not_found', [], inDoubt, lookedAt), nextLookAt: lookedAt + config.personWaitLookIntervalMs };
}

/**
 * Created after `send` started on the exchange's clock, whichever way the clocks differ within
 * their uncertainty. A record made earlier is not ours; one made inside the uncertainty may be
 * ours or a look-alike made by hand seconds before: terms and time cannot tell them apart.
 */
export function provenAfterSend(c: Pick<Candidate, 'createdAt'>, send: Attempt, config: EngineConfig, measuredOffsetMs: number | null): boolean {
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  return c.createdAt > send.startedAt + offset + tolerance;
}

/**
 * A record the exchange created while our call was still open (after the send provably started,
 * and before the moment we gave up, on the exchange's clock) is ours unless another candidate
 * exists: a record made by hand in those seconds with the same terms is far less likely than our
 * own. One created after we gave up may be our late commit or a stranger's: it is adopted only
 * when the window has closed with no other candidate.
 */
function createdWhileCallOpen(c: Candidate, last: Attempt, config: EngineConfig, measuredOffsetMs: number | null): boolean {
  if (last.endedAt === null) return false;
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  // After a crash mid-call `endedAt` is the restart: the call itself was over long before.
  const closed = Math.min(last.endedAt, last.startedAt + config.maxCallMs);
  return provenAfterSend(c, last, config, measuredOffsetMs) && c.createdAt <= closed + offset + tolerance;
}

function question(kind: PersonQuestion['kind'], candidates: Candidate[], inDoubt: InDoubt, now: number, message?: string): PersonQuestion {
  const same = inDoubt.question !== null && inDoubt.question.kind === kind && sameIds(inDoubt.question.candidates, candidates);
  return same ? inDoubt.question! : { askedAt: now, kind, candidates, ...(message !== undefined ? { message } : {}) };
}

function sameIds(a: Candidate[], b: Candidate[]): boolean {
  return a.length === b.length && a.every((c, i) => c.exchangeId === b[i]!.exchangeId);
}
