// Approve on a request that needs a one-time code: the modal opens at once and shows what is being
// approved with a code field; the approval counts only from its submit (approve-submit.ts). A click
// the engine would refuse anyway (not an approver, own request, decided, changed) is left to the
// plain path, which refuses it in the engine's words and audits it.
import type { KnownBlock } from '../kit/blocks.js';
import type { SlackClient, SlackContext } from '../kit/slack-context.js';
import { judgeApproval } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { stepUpRequired } from '../../domain/step-up/required.js';
import { errorText } from '../../domain/error-text.js';
import { approveCodeView, approvePreparingView, HOW_TO_ENROLL, stepUpNotice } from './step-up-views.js';
import type { ApproveCodeMeta } from './approve-submit.js';

export interface CodeAsk {
  userId: string;
  triggerId: string;
  requestId: string;
  seenHash: string;
  client: SlackClient;
  /** What is being approved, as the approval message shows it. */
  what: (request: RequestRecord) => KnownBlock[];
}

/** True when the approval is asked for in the code modal (the click itself counts nothing). */
export async function askForCode(ctx: SlackContext, ask: CodeAsk): Promise<boolean> {
  const request = await ctx.deps.engine.get(ask.requestId);
  if (request === undefined || !stepUpRequired(request, { atLeastUsd: ctx.config.stepUp.atLeastUsd })) return false;
  if (!judgeApproval(ctx.deps.policy, request, ask.userId, ask.seenHash).ok) return false;
  const opened = await ask.client.views.open({ trigger_id: ask.triggerId, view: approvePreparingView() });
  const viewId = opened.view?.id;
  if (!viewId) return true;
  try {
    const enrolled = ctx.deps.stepUps.configured && (await ctx.deps.stepUps.enrolled(ask.userId));
    if (!enrolled) {
      await ctx.deps.audit.append({
        type: 'approval.refused',
        actor: ask.userId,
        requestId: ask.requestId,
        data: { reason: 'step_up_not_enrolled', seenHash: ask.seenHash },
      });
      await ask.client.views.update({
        view_id: viewId,
        view: stepUpNotice(
          'approve',
          `:lock: This approval needs a one-time code, and your approval has not counted. ${HOW_TO_ENROLL}`,
        ),
      });
      return true;
    }
    const meta: ApproveCodeMeta = { r: ask.requestId, h: ask.seenHash };
    await ask.client.views.update({
      view_id: viewId,
      view: approveCodeView(ask.what(request), JSON.stringify(meta)),
    });
  } catch (err) {
    ctx.logger.error(`step-up approval modal failed: ${errorText(err)}`);
  }
  return true;
}
