// After a request form was acked ("checking with the exchange…"): the engine is asked once per form
// (submission-markers.ts), and the modal shows the request id, "already submitted" or the objection.
import type { RequestInput } from '../../engine/engine.js';
import type { Refusal } from '../../domain/refusals.js';
import type { ModalView } from '../kit/blocks.js';
import type { RefillNotes } from '../kit/refill-form.js';
import { noticeView } from '../kit/modal-views.js';
import { alreadySentView, sentView } from './submitted-views.js';
import type { SlackClient, SlackContext } from '../kit/slack-context.js';
import { earlierSubmission, submissionKey, submitOnce, type SubmitOutcome } from './submission-markers.js';
import { errorText } from '../../domain/error-text.js';

export interface RequestFormSubmission {
  title: string;
  viewId: string;
  userId: string;
  input: RequestInput;
  /** The form again with the refusal shown; undefined: a notice with the refusal's words. */
  refill?: (refusal: Refusal) => ModalView | undefined;
  /** After the request was created (e.g. drop the form's stored data). */
  onCreated?: () => Promise<void>;
}

/** "Not sent: …" in plain words; the exchange's message is kept as it came. */
export function refusalSentence(refusal: Refusal): string {
  if (refusal.reason === 'exchange_error')
    return `Not sent: the exchange answered "${refusal.message}". Nothing was requested; try again in a moment.`;
  return `Not sent: ${refusal.message}`;
}

/** Under the field at fault when there is one, else above the form: never both (the same error twice). */
export function refusalNotes(refusal: Refusal, fieldBlock: string | undefined): RefillNotes {
  return fieldBlock ? { fields: { [fieldBlock]: refusalSentence(refusal) } } : { top: refusalSentence(refusal) };
}

/** Ask the engine for the request and show the outcome in the modal `viewId`. */
export async function sendRequestForm(ctx: SlackContext, client: SlackClient, s: RequestFormSubmission): Promise<void> {
  const engine = ctx.deps.engine;
  return showOutcome(ctx, client, s, () => submitOnce(ctx, s.viewId, () => engine.request(s.userId, s.input)));
}

/** A form submitted again after its request was made, on any replica: the first answer shown again; false if none stored. */
export async function repeatSubmission(
  ctx: SlackContext,
  client: SlackClient,
  title: string,
  viewId: string,
  ack: () => Promise<void>,
): Promise<boolean> {
  if (!(await hasSubmission(ctx, viewId))) return false;
  await ack();
  await showOutcome(
    ctx,
    client,
    { title, viewId },
    async () => (await earlierSubmission(ctx, viewId)) ?? { kind: 'earlier', requestId: undefined },
  );
  return true;
}

/** One read of the store, fit to run before an ack. */
async function hasSubmission(ctx: SlackContext, viewId: string): Promise<boolean> {
  return (await ctx.deps.kv.get(submissionKey(viewId))) !== undefined;
}

async function showOutcome(
  ctx: SlackContext,
  client: SlackClient,
  s: Pick<RequestFormSubmission, 'title' | 'viewId' | 'refill' | 'onCreated'>,
  run: () => Promise<SubmitOutcome>,
): Promise<void> {
  let view: ModalView;
  try {
    const outcome = await run();
    if (outcome.kind === 'earlier') view = alreadySentView(s.title, outcome.requestId);
    else if (outcome.result.ok) {
      view = sentView(s.title, outcome.result.request.kind, outcome.result.request.id, ctx.config.channels.approval);
      await s.onCreated?.();
    } else {
      view = s.refill?.(outcome.result) ?? noticeView(s.title, refusalSentence(outcome.result));
    }
  } catch (err) {
    ctx.logger.error(`request from a form failed: ${errorText(err)}`);
    view = noticeView(
      s.title,
      'The request could not be completed because of an internal error. It has been logged; check the approval channel before trying again.',
    );
  }
  await show(ctx, client, s.viewId, view);
}

async function show(ctx: SlackContext, client: SlackClient, viewId: string, view: ModalView): Promise<void> {
  try {
    await client.views.update({ view_id: viewId, view });
  } catch (err) {
    // Closed meanwhile: the request (if any) is in the approval channel all the same.
    ctx.logger.info(`request form not updated: ${errorText(err)}`);
  }
}
