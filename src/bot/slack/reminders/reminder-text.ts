// What a nudge says: the reminder DM (the approval message itself, its buttons included, under a
// line saying why it came) and the thread's warning before expiry, naming who is still awaited.
import type { ActingDelegate } from '../../domain/delegation.js';
import type { RequestRecord } from '../../domain/record.js';
import { stillApproveText } from '../delegation/approver-text.js';
import type { Awaited } from '../../engine/reminders/awaited.js';
import { approvalMessageFor } from '../approvals/from-record.js';
import { context, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { slackDate } from '../kit/format.js';
import { timeLeftText } from '../home/time-left.js';
import { code, mention } from '../kit/mrkdwn.js';
import { ACTION } from '../kit/slack-ids.js';

/** The reminder DM to one approver: why it came, then the approval message with Approve and Reject (not Cancel). */
export function reminderDm(request: RequestRecord, reminder: { n: number; max: number }, now: number): MessagePayload {
  const lead = `:eyes: Reminder ${reminder.n} of ${reminder.max}: request ${code(request.id, 40)} from ${mention(request.requester)} waits for your approval. It expires ${slackDate(request.expiresAt)} (${timeLeftText(request.expiresAt, now)}).`;
  // Without its own sandbox banner: the notifier puts one on every post.
  const message = approvalMessageFor(request, false);
  // Cancel is the requester's button; an approver reminded has Approve and Reject.
  const blocks = message.blocks.map((b) =>
    b.type === 'actions'
      ? { ...b, elements: b.elements.filter((e) => !('action_id' in e && e.action_id === ACTION.cancel)) }
      : b,
  ) as KnownBlock[];
  return {
    text: `Reminder: request ${request.id} waits for your approval`,
    blocks: [section(lead), ...blocks],
  };
}

/**
 * The thread's warning at 80% of the round's life: when it expires and who can still approve, with
 * the delegates in force named as the progress line names them ("@Ben for @Ana").
 */
export function expiringPost(
  request: RequestRecord,
  awaited: Awaited,
  actingDelegates: readonly ActingDelegate[],
  now: number,
): MessagePayload {
  const who = stillApproveText(awaited.approvers, actingDelegates);
  const needed = `${awaited.missing} more approval${awaited.missing === 1 ? '' : 's'} needed`;
  const text = `:hourglass_flowing_sand: This request expires ${slackDate(request.expiresAt)} (${timeLeftText(request.expiresAt, now)}) unless approved: ${needed}${who ? `, from ${who}` : ''}.`;
  return {
    text: `Request ${request.id} expires soon: ${needed}`,
    blocks: [section(text), context(['Nothing is sent once it expires: the requester asks again.'])],
  };
}
