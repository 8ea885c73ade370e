// `/desk delegate`: an approver names who approves in their place for a period, sees it, ends it.
// Answered privately where it was typed; the change itself is the engine's (audited, shared store).
import type { RespondFn } from '@slack/bolt';
import { errorText } from '../../domain/error-text.js';
import { mention } from '../kit/mrkdwn.js';
import { INTERNAL_ERROR_TEXT } from '../kit/reply.js';
import type { SlackContext } from '../kit/slack-context.js';
import { delegateLine, actingDelegateLine } from './delegation-lines.js';
import { readDelegateInput } from './delegate-input.js';

type Ack = (answer?: { response_type: 'ephemeral'; text: string }) => Promise<void>;

/** `/desk delegate [@name until YYYY-MM-DD | end]` by `userId`; `words` follow `delegate`. */
export async function deskDelegate(
  ctx: SlackContext,
  ack: Ack,
  respond: RespondFn,
  userId: string,
  words: readonly string[],
): Promise<void> {
  const input = readDelegateInput(words);
  if (!input.ok) return ack({ response_type: 'ephemeral', text: input.message });
  await ack();
  const delegations = ctx.deps.engine.delegations;
  const now = () => ctx.deps.clock.now();
  const answer = async (text: string) => {
    await respond({ response_type: 'ephemeral', replace_original: false, text });
  };
  try {
    if (input.action === 'set') {
      const set = await delegations.set(userId, input.delegate, input.until);
      if (!set.ok) return answer(`:warning: ${set.message}`);
      return answer(
        `:white_check_mark: ${delegateLine(set.delegation, now())}. Their approval counts as yours, once per request and never on a request of their own. \`/desk delegate end\` ends it sooner.`,
      );
    }
    if (input.action === 'end') {
      const ended = await delegations.end(userId);
      return answer(
        ended ? `Ended: ${mention(ended.delegate)} no longer approves in your place.` : 'You have no delegate to end.',
      );
    }
    return answer(await shown(ctx, userId));
  } catch (err) {
    ctx.logger.error(`/desk delegate failed: ${errorText(err)}`);
    await answer(INTERNAL_ERROR_TEXT);
  }
}

async function shown(ctx: SlackContext, userId: string): Promise<string> {
  const now = ctx.deps.clock.now();
  const mine = await ctx.deps.engine.delegations.of(userId);
  const forOthers = (await ctx.deps.engine.delegations.active()).filter((d) => d.delegate === userId);
  const lines = [
    mine
      ? `${delegateLine(mine, now)}. \`/desk delegate end\` ends it.`
      : ctx.roles.isApprover(userId)
        ? 'You have no delegate. `/desk delegate @name until 2026-12-24` names one, for at most 30 days.'
        : 'Only approvers name delegates.',
    ...forOthers.map((d) => `${actingDelegateLine(d, now)}.`),
  ];
  return lines.join('\n');
}
