/**
 * A submitted form becomes at most one request, whichever replica each delivery reaches. Slack may
 * deliver a view_submission again (x-slack-retry-num), to this replica or another, and people press
 * Submit twice; every delivery carries the same view id, which is the dedupe token.
 *
 * The first delivery claims the token in the shared store (KeyValueStore.setIfAbsent: atomic across
 * replicas, durable before the engine is asked), runs, and leaves its answer there: the request it
 * created, or the refusal. Any other delivery finds the token taken, waits for that answer in the
 * store and shows the same one. After a restart a repeated submission is answered "already
 * submitted" instead of creating a second request. A refused submission frees its token, so the
 * form, corrected, can be sent again; its refusal stays under its own claim's key for the
 * deliveries that were waiting on it. A claim whose run never finished (the process stopped, or
 * the engine threw) is never taken over: a request may exist, and a second one is never risked.
 *
 * Nothing of this is in process memory: a delivery on the replica that is running the first one
 * waits in the store like any other.
 */
import { randomUUID } from 'node:crypto';
import type { RequestResult } from '../../engine/engine.js';
import type { Refusal } from '../../domain/refusals.js';
import type { SlackContext } from '../kit/slack-context.js';

export const SUBMISSION_KEY_PREFIX = 'slack:submission:';

/** The token of a form: claimed by one delivery, then the request it made. */
type SubmissionMarker =
  { state: 'started'; claim: string; at: number } | { state: 'created'; requestId: string; at: number };
/** The answer of a refused claim, under the claim's own key, for the deliveries that waited on it. */
interface RefusedClaim {
  state: 'refused';
  refusal: Refusal;
  at: number;
}

export type SubmitOutcome =
  /** This delivery's own answer, or that of another delivery of the same submission it waited for. */
  | { kind: 'result'; result: RequestResult }
  /** The form was submitted before (another delivery we did not see run, or before a restart). */
  | { kind: 'earlier'; requestId: string | undefined };

/** How often, and how long, a delivery waits for the one that claimed its form (the engine reads the exchange meanwhile). */
export const SUBMISSION_POLL_MS = 100;
export const SUBMISSION_WAIT_MS = 30_000;

export function submissionKey(viewId: string): string {
  return `${SUBMISSION_KEY_PREFIX}${viewId}`;
}

/** Same prefix as the token, so the same retention (retention.ts) drops it. */
function refusedClaimKey(viewId: string, claim: string): string {
  return `${SUBMISSION_KEY_PREFIX}${viewId}:refused:${claim}`;
}

/** Run `send` at most once for the form `viewId`, whichever replica runs it; see the file comment. */
export async function submitOnce(
  ctx: SlackContext,
  viewId: string,
  send: () => Promise<RequestResult>,
): Promise<SubmitOutcome> {
  return (await settle(ctx, viewId, send))!;
}

/**
 * The answer of an earlier submission of the form `viewId` (waiting for one still running);
 * undefined when it was never submitted, or its submission was refused before this one looked.
 */
export function earlierSubmission(ctx: SlackContext, viewId: string): Promise<SubmitOutcome | undefined> {
  return settle(ctx, viewId, undefined);
}

/** Claims and runs `send` when the token is free; otherwise the answer of whoever holds it. */
async function settle(
  ctx: SlackContext,
  viewId: string,
  send: (() => Promise<RequestResult>) | undefined,
): Promise<SubmitOutcome | undefined> {
  const { kv, clock } = ctx.deps;
  const key = submissionKey(viewId);
  /** The claim this delivery has seen running: its answer is this delivery's answer. */
  let waitingOn: string | undefined;
  for (let waited = 0; waited <= SUBMISSION_WAIT_MS;) {
    const marker = await kv.get<SubmissionMarker>(key);
    if (marker?.state === 'created')
      return waitingOn === undefined
        ? { kind: 'earlier', requestId: marker.requestId }
        : sameAnswer(ctx, marker.requestId);
    if (waitingOn !== undefined && marker?.claim !== waitingOn) {
      // The run we waited for is over and freed the token: it was refused.
      const refused = await kv.get<RefusedClaim>(refusedClaimKey(viewId, waitingOn));
      if (refused) return { kind: 'result', result: refused.refusal };
    }
    if (marker === undefined) {
      if (send === undefined) return undefined;
      const claim = randomUUID();
      if (await kv.setIfAbsent<SubmissionMarker>(key, { state: 'started', claim, at: clock.now() }))
        return { kind: 'result', result: await run(ctx, viewId, claim, send) };
      // Another delivery claimed it between the read and the claim: read again, at once.
      continue;
    }
    // A claim older than the longest wait is one whose run never finished.
    if (clock.now() - marker.at > SUBMISSION_WAIT_MS) break;
    waitingOn = marker.claim;
    await clock.sleep(SUBMISSION_POLL_MS);
    waited += SUBMISSION_POLL_MS;
  }
  return { kind: 'earlier', requestId: undefined };
}

async function run(
  ctx: SlackContext,
  viewId: string,
  claim: string,
  send: () => Promise<RequestResult>,
): Promise<RequestResult> {
  const { kv, clock } = ctx.deps;
  // A throw leaves the claim as it is: a request may exist, and a repeat is answered "already submitted".
  const result = await send();
  if (result.ok) {
    await kv.set<SubmissionMarker>(submissionKey(viewId), {
      state: 'created',
      requestId: result.request.id,
      at: clock.now(),
    });
  } else {
    await kv.set<RefusedClaim>(refusedClaimKey(viewId, claim), { state: 'refused', refusal: result, at: clock.now() });
    await kv.set(submissionKey(viewId), undefined);
  }
  return result;
}

/** Another delivery of this same submission made the request: show what it showed. */
async function sameAnswer(ctx: SlackContext, requestId: string): Promise<SubmitOutcome> {
  const request = await ctx.deps.engine.get(requestId);
  return request ? { kind: 'result', result: { ok: true, request } } : { kind: 'earlier', requestId };
}
