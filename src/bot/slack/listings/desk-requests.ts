// `/desk pending`, `status <id>` and `remove-bank <id>` (which asks for approval like any money movement):
// acked first, answered as an ephemeral reply.
import { policyView } from './policy-view.js';
import type { RespondFn } from '@slack/bolt';
import { awaitsVerdict } from '../../domain/state-machine.js';
import { statusMessageFor } from '../approvals/from-record.js';
import { homeRequestOf } from '../home/home-view.js';
import { refusalReply, refusalText } from '../kit/refusal-text.js';
import { pendingList, PENDING_PAGE_SIZE } from './pending-list.js';
import { channelMention, code, escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackContext } from '../kit/slack-context.js';
import { refusalSentence } from '../request-forms/request-flow.js';
import { INTERNAL_ERROR_TEXT } from '../kit/reply.js';
import { errorText } from '../../domain/error-text.js';

type Ack = (answer?: { response_type: 'ephemeral'; text: string }) => Promise<void>;

const REQUEST_ID = /^[A-Za-z0-9]{1,20}$/;
const BANK_ID = /^\d{1,15}$/;
/** A page of `/desk pending`, from 1. */
const PAGE = /^[1-9]\d{0,3}$/;

async function guarded(ctx: SlackContext, respond: RespondFn, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    ctx.logger.error(`/desk ${what} failed: ${errorText(err)}`);
    await respond({ response_type: 'ephemeral', text: INTERNAL_ERROR_TEXT });
  }
}

/** `/desk pending [page]` */
export async function deskPending(ctx: SlackContext, ack: Ack, respond: RespondFn, arg?: string): Promise<void> {
  const engine = ctx.deps.engine;
  if (arg !== undefined && !PAGE.test(arg))
    return ack({
      response_type: 'ephemeral',
      text: `Usage: \`/desk pending [page]\`, e.g. \`/desk pending 2\` for the requests after the first ${PENDING_PAGE_SIZE}.`,
    });
  const page = arg === undefined ? 1 : Number(arg);
  await ack();
  await guarded(ctx, respond, 'pending', async () => {
    const waiting = (await engine.listLive())
      .filter((r) => awaitsVerdict(r.state))
      .sort((a, b) => a.createdAt - b.createdAt);
    await respond({ response_type: 'ephemeral', ...pendingList(waiting.map(homeRequestOf), ctx.sandbox, page) });
  });
}

/** `/desk policy`: desk members only (desk-command.ts checks), privately, with the limits' room left now. */
export async function deskPolicy(ctx: SlackContext, ack: Ack, respond: RespondFn): Promise<void> {
  await ack();
  await guarded(ctx, respond, 'policy', async () => {
    const limits = await ctx.deps.engine.limitsNow();
    await respond({ response_type: 'ephemeral', ...policyView(ctx.deps.policy, limits, ctx.deps.clock.now()) });
  });
}

/** `/desk status <id>` */
export async function deskStatus(
  ctx: SlackContext,
  ack: Ack,
  respond: RespondFn,
  arg: string | undefined,
): Promise<void> {
  const engine = ctx.deps.engine;
  if (!arg || !REQUEST_ID.test(arg))
    return ack({ response_type: 'ephemeral', text: 'Usage: `/desk status <request id>`, e.g. `/desk status R7K2QX`.' });
  await ack();
  await guarded(ctx, respond, 'status', async () => {
    const request = (await engine.get(arg)) ?? (await engine.get(arg.toUpperCase()));
    if (!request) {
      await respond({
        response_type: 'ephemeral',
        text: `No request ${code(arg, 40)}. \`/desk pending\` lists the open ones.`,
      });
      return;
    }
    await respond({ response_type: 'ephemeral', ...statusMessageFor(request, ctx.sandbox) });
  });
}

/** `/desk remove-bank <bank account id>`: a request for approval, like a withdrawal. */
export async function deskRemoveBank(
  ctx: SlackContext,
  ack: Ack,
  respond: RespondFn,
  userId: string,
  arg: string | undefined,
  redelivered: boolean,
): Promise<void> {
  const engine = ctx.deps.engine;
  if (!ctx.roles.isRequester(userId)) return ack({ response_type: 'ephemeral', text: refusalText('not_requester') });
  if (!arg || !BANK_ID.test(arg))
    return ack({
      response_type: 'ephemeral',
      text: 'Usage: `/desk remove-bank <bank account id>`; `/desk banks` lists the ids.',
    });
  // A redelivery of a command already received: the first delivery answers.
  if (redelivered) return ack();
  await ack({
    response_type: 'ephemeral',
    text: `:hourglass_flowing_sand: Asking for approval to remove bank account ${code(arg, 20)}…`,
  });
  await guarded(ctx, respond, 'remove-bank', async () => {
    const result = await engine.request(userId, { kind: 'bank_account_removal', bankAccountId: Number(arg) });
    const text = result.ok
      ? `:white_check_mark: Removal of ${escapeMrkdwn(result.request.snapshot.kind === 'bank_account_removal' ? result.request.snapshot.bankAccount.display : arg, 300)} is waiting for approval as ${code(result.request.id, 40)} in ${channelMention(ctx.config.channels.approval)}.`
      : refusalReply(refusalSentence(result));
    await respond({ response_type: 'ephemeral', replace_original: false, text });
  });
}
