// An unknown outcome, decided without I/O: `openInDoubt` when a send's answer is lost, `judgeLook` on
// what each look saw. Nothing is adopted or resent that the look does not prove; the rest goes to a
// person. Every row: docs/execution.md "An unknown outcome" and in-doubt.test.ts.
import type {
  Attempt,
  Candidate,
  RequestRecord,
  ExecutedRequest,
  InDoubt,
  PersonQuestion,
} from '../../domain/record.js';
import type { EngineConfig } from '../engine-config.js';

export type Look =
  /** The request's own record: by key, by our desk reference, or (a bank account removal) the account is gone. */
  | { kind: 'found'; exchangeId: string; by?: 'key' | 'reference' }
  /** Records on the request's terms no other request owns, in the window. `late`: created after it: never adopted, only shown to the person. */
  | { kind: 'candidates'; candidates: Candidate[]; late?: Candidate[] }
  /** Nothing could be proven: the exchange failed, or listed more than a search reads. */
  | { kind: 'inconclusive'; message: string; cut: boolean };

export type LookJudgement =
  | {
      kind: 'adopt';
      exchangeId: string;
      why: 'key' | 'reference' | 'sole_candidate_in_call' | 'sole_candidate_window_closed';
    }
  | { kind: 'wait'; nextLookAt: number }
  | { kind: 'ask'; question: PersonQuestion; nextLookAt: number }
  | { kind: 'requote'; message: string }
  | { kind: 'resend'; key: string }
  /** A withdrawal's last send was refused and nothing else is there: the refusal stands. */
  | { kind: 'refusal_stands' };

/** The window is fixed here on the exchange's clock: first send minus allowed offset to last send plus settle window. It never grows. */
export function openInDoubt(
  record: RequestRecord,
  now: number,
  config: EngineConfig,
  measuredOffsetMs: number | null,
): InDoubt {
  const attempts = record.execution?.attempts ?? [];
  const first = attempts[0]?.startedAt ?? now;
  const last = attempts.at(-1)?.startedAt ?? now;
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  return {
    since: now,
    window: {
      from: Math.max(0, first + offset - tolerance),
      to: last + offset + config.unknownSettleWindowMs + tolerance,
    },
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

/** The measured offset (0 if never measured) and how far off it may be (its tolerance, or the whole skew allowed). */
export function exchangeClock(
  config: EngineConfig,
  measuredOffsetMs: number | null,
): { offset: number; tolerance: number } {
  return {
    offset: measuredOffsetMs ?? 0,
    tolerance: measuredOffsetMs === null ? config.clockSkewMs : config.offsetToleranceMs,
  };
}

/** What the request does after a look that started at `lookedAt` (our clock). */
export function judgeLook(
  record: ExecutedRequest,
  inDoubt: InDoubt,
  look: Look,
  lookedAt: number,
  config: EngineConfig,
  measuredOffsetMs: number | null,
): LookJudgement {
  if (look.kind === 'found') return { kind: 'adopt', exchangeId: look.exchangeId, why: look.by ?? 'key' };
  const again = inDoubt.question === null ? config.lookIntervalMs : config.personWaitLookIntervalMs;
  const windowClosed = lookedAt >= inDoubt.settleUntil;
  const withdrawal = record.kind === 'crypto_withdrawal' || record.kind === 'fiat_withdrawal';
  if (look.kind === 'inconclusive') {
    // Looks that prove nothing past the window would go on forever: a person checks the exchange.
    if (withdrawal && windowClosed)
      return {
        kind: 'ask',
        question: question('unreadable', [], inDoubt, lookedAt, look.message),
        nextLookAt: lookedAt + config.unreadableLookIntervalMs,
      };
    return { kind: 'wait', nextLookAt: lookedAt + config.unreadableLookIntervalMs };
  }
  const attempts = record.execution.attempts;
  const last = attempts.at(-1)!;
  if (!withdrawal) return decideByKey(record, inDoubt, last, lookedAt, config);
  const candidates = look.candidates.filter((c) => !inDoubt.excluded.includes(c.exchangeId));
  if (candidates.length > 1)
    return {
      kind: 'ask',
      question: question('ambiguous', candidates, inDoubt, lookedAt),
      nextLookAt: lookedAt + config.personWaitLookIntervalMs,
    };
  if (candidates.length === 1) {
    const only = candidates[0]!;
    // Perhaps made by hand just before our send: its terms and time prove nothing, so a person says.
    if (!provenAfterSend(only, attempts[0]!, config, measuredOffsetMs))
      return {
        kind: 'ask',
        question: question('unproven', candidates, inDoubt, lookedAt),
        nextLookAt: lookedAt + again,
      };
    if (createdWhileCallOpen(only, last, config, measuredOffsetMs))
      return { kind: 'adopt', exchangeId: only.exchangeId, why: 'sole_candidate_in_call' };
    if (windowClosed) return { kind: 'adopt', exchangeId: only.exchangeId, why: 'sole_candidate_window_closed' };
    return { kind: 'wait', nextLookAt: Math.min(lookedAt + again, inDoubt.settleUntil) };
  }
  if (last.outcome === 'refused') return { kind: 'refusal_stands' };
  if (!windowClosed) return { kind: 'wait', nextLookAt: Math.min(lookedAt + again, inDoubt.settleUntil) };
  const late = (look.late ?? []).filter((c) => !inDoubt.excluded.includes(c.exchangeId));
  if (late.length > 0)
    return {
      kind: 'ask',
      question: question('ambiguous', late, inDoubt, lookedAt),
      nextLookAt: lookedAt + config.personWaitLookIntervalMs,
    };
  return {
    kind: 'ask',
    question: question('not_found', [], inDoubt, lookedAt),
    nextLookAt: lookedAt + config.personWaitLookIntervalMs,
  };
}

/**
 * Orders match by client_order_id only. A look after the quote died finding nothing proves no order:
 * re-quote, same id. If one may exist (duplicate, refused resend, `stoppedBecause`), only look, then ask
 * a person. A removal may be resent (404 = gone). docs/execution.md "An unknown outcome".
 */
function decideByKey(
  record: ExecutedRequest,
  inDoubt: InDoubt,
  last: Attempt,
  lookedAt: number,
  config: EngineConfig,
): LookJudgement {
  const sameKey = record.execution.attempts.filter((a) => a.key === last.key);
  if (record.kind === 'trade') {
    const doubted = sameKey
      .slice(0, -1)
      .some((a) => a.outcome === 'unknown' || a.outcome === 'duplicate' || a.outcome === 'in_flight');
    // "Quote cannot be used" re-quotes (the client_order_id is kept, so an order of it makes the exchange refuse the next as a duplicate).
    const mayExist = sameKey.some((a) => a.outcome === 'duplicate') || (doubted && last.outcome === 'refused');
    if (mayExist || inDoubt.stoppedBecause !== null) return untilPerson(inDoubt, lookedAt, config);
  }
  if (last.outcome === 'refused' || last.outcome === 'quote_unusable')
    return last.outcome === 'quote_unusable'
      ? { kind: 'requote', message: last.message ?? 'The quote could not be used.' }
      : { kind: 'refusal_stands' };
  const settledAt = last.startedAt + config.firstLookAfterMs;
  if (lookedAt < settledAt) return { kind: 'wait', nextLookAt: settledAt };
  const deadAt = last.quote === null ? undefined : last.quote.expiresAt + config.clockSkewMs;
  if (deadAt !== undefined && lookedAt >= deadAt) {
    return {
      kind: 'requote',
      message: `The quote ${last.quote!.quoteId} expired at ${new Date(last.quote!.expiresAt).toISOString()} and no order carries this request's client order id.`,
    };
  }
  // A removal is sent again at every look: removing it twice cannot do harm; orders are bounded.
  if (record.kind === 'bank_account_removal' || sameKey.length < config.maxSendsPerKey)
    return { kind: 'resend', key: last.key };
  const next = lookedAt + config.unreadableLookIntervalMs;
  return { kind: 'wait', nextLookAt: deadAt !== undefined && deadAt > lookedAt ? Math.min(next, deadAt) : next };
}

/** Look again until the settle window closes, then ask a person (Look again / Mark as not placed), looking less often. */
function untilPerson(inDoubt: InDoubt, lookedAt: number, config: EngineConfig): LookJudgement {
  if (lookedAt < inDoubt.settleUntil)
    return { kind: 'wait', nextLookAt: Math.min(lookedAt + config.unreadableLookIntervalMs, inDoubt.settleUntil) };
  return {
    kind: 'ask',
    question: question('not_found', [], inDoubt, lookedAt),
    nextLookAt: lookedAt + config.personWaitLookIntervalMs,
  };
}

/** Made inside the clocks' uncertainty it may be ours or a hand-made look-alike seconds before: terms and time cannot tell. */
export function provenAfterSend(
  c: Pick<Candidate, 'createdAt'>,
  send: Attempt,
  config: EngineConfig,
  measuredOffsetMs: number | null,
): boolean {
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  return c.createdAt > send.startedAt + offset + tolerance;
}

/**
 * Created while our call was open: ours unless another candidate exists (a same-terms record by hand in
 * those seconds is far less likely). Created after we gave up: adopted only once the window closed alone.
 */
function createdWhileCallOpen(
  c: Candidate,
  last: Attempt,
  config: EngineConfig,
  measuredOffsetMs: number | null,
): boolean {
  if (last.endedAt === null) return false;
  const { offset, tolerance } = exchangeClock(config, measuredOffsetMs);
  // After a crash mid-call `endedAt` is the restart: the call itself was over long before.
  const closed = Math.min(last.endedAt, last.startedAt + config.maxCallMs);
  return provenAfterSend(c, last, config, measuredOffsetMs) && c.createdAt <= closed + offset + tolerance;
}

function question(
  kind: PersonQuestion['kind'],
  candidates: Candidate[],
  inDoubt: InDoubt,
  now: number,
  message?: string,
): PersonQuestion {
  const same =
    inDoubt.question !== null && inDoubt.question.kind === kind && sameIds(inDoubt.question.candidates, candidates);
  return same ? inDoubt.question! : { askedAt: now, kind, candidates, ...(message !== undefined ? { message } : {}) };
}

function sameIds(a: Candidate[], b: Candidate[]): boolean {
  return a.length === b.length && a.every((c, i) => c.exchangeId === b[i]!.exchangeId);
}
