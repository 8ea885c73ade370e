// /desk policy: the approval policy as the bot runs it, privately to a desk member, with the room
// left under each limit now. User ids show as mentions; everything else is the policy's own words.
import { describePolicy, limitLine } from '../../domain/policy/describe.js';
import type { Policy } from '../../domain/policy.js';
import type { LimitNow } from '../../engine/request-reads.js';
import { context, header, message, section, type MessagePayload } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { slackDate } from '../kit/format.js';

const USER_ID = /\b[UW][A-Z0-9]{6,}\b/g;

/** One line of the description, escaped, its user ids as mentions. */
function shown(line: string): string {
  return escapeMrkdwn(line, 2_900).replace(USER_ID, (id) => `<@${id}>`);
}

export function policyView(policy: Policy, limits: readonly LimitNow[], now: number): MessagePayload {
  const lines = describePolicy(policy).filter(
    (l) => !l.startsWith('Limits:') && !limits.some((n) => l.trim() === limitLine(n.limit)),
  );
  const blocks = [header('Approval policy'), section(lines.map(shown).join('\n'))];
  if (limits.length > 0)
    blocks.push(
      section(
        [
          '*Limits*, with the room left now:',
          ...limits.map(
            (n) =>
              `• ${shown(limitLine(n.limit))}\n    used ${escapeMrkdwn(n.used, 60)}, *room left ${escapeMrkdwn(n.room, 60)} ${escapeMrkdwn(n.limit.match.asset, 20)}*`,
          ),
        ].join('\n'),
      ),
    );
  blocks.push(context([`As the bot runs it, ${slackDate(now)}. Only the desk sees this.`]));
  return message('Approval policy', blocks);
}
