/**
 * A submitted form becomes at most one request. Slack may deliver a view_submission again
 * (x-slack-retry-num) and people press Submit twice; both carry the same view id, which is the
 * dedupe token: the first submission runs, any other of the same view waits for it and gets the
 * same answer. The token is persisted (KeyValueStore) before the engine is asked, so after a
 * restart a repeated submission is answered "already submitted" instead of creating a second
 * request. A refused submission frees its token: the form, corrected, can be sent again.
 */
import type { RequestResult } from '../../app/engine.js';
import type { SlackContext } from './slack-context.js';

export const SUBMISSION_KEY_PREFIX = 'slack:submission:';

type SubmissionRecord = { state: 'started'; at: number } | { state: 'created'; requestId: string; at: number } | { state: 'refused'; at: number };

export type SubmitOutcome =
  | { kind: 'result'; result: RequestResult }
  /** The same view was submitted before (another delivery, or before a restart). */
  | { kind: 'earlier'; requestId: string | undefined };

/** Submissions remembered in memory; older ones are still answered from the persisted token. */
const MAX_REMEMBERED = 1_000;

/** Run `send` once for the form `viewId`; see the file comment. */
export function submitOnce(ctx: SlackContext, viewId: string, send: () => Promise<RequestResult>): Promise<SubmitOutcome> {
  const running = ctx.submissions.get(viewId) as Promise<SubmitOutcome> | undefined;
  // The same answer for every delivery: each one's handler shows it in the modal.
  if (running) return running;
  const outcome = run(ctx, viewId, send);
  ctx.submissions.set(viewId, outcome);
  while (ctx.submissions.size > MAX_REMEMBERED) ctx.submissions.delete(ctx.submissions.keys().next().value as string);
  outcome.then(
    (o) => {
      if (o.kind === 'result' && !o.result.ok) ctx.submissions.delete(viewId);
    },
    () => undefined,
  );
  return outcome;
}

async function run(ctx: SlackContext, viewId: string, send: () => Promise<RequestResult>): Promise<SubmitOutcome> {
  const kv = ctx.deps.kv;
  const key = `${SUBMISSION_KEY_PREFIX}${viewId}`;
  const now = () => ctx.deps.clock.now();
  const earlier = await kv.get<SubmissionRecord>(key);
  if (earlier?.state === 'created') return { kind: 'earlier', requestId: earlier.requestId };
  // Started and never finished: the process stopped meanwhile. A request may exist; never risk a second.
  if (earlier?.state === 'started') return { kind: 'earlier', requestId: undefined };
  await kv.set<SubmissionRecord>(key, { state: 'started', at: now() });
  const result = await send();
  await kv.set<SubmissionRecord>(key, result.ok ? { state: 'created', requestId: result.request.id, at: now() } : { state: 'refused', at: now() });
  return { kind: 'result', result };
}
