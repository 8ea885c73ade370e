// `/desk help | pending [page] | status <id> | withdrawals | deposits | orders | fiat | banks | remove-bank <id> | delegate`:
// read-only ephemeral listings; help answers in the ack itself; request subcommands in desk-requests.ts.
import type { Middleware, RespondFn, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { deskHelp } from './help.js';
import { approvalsSentence } from '../kit/policy-words.js';
import { fiatOverview, listPage, type ListName } from './listing-lines.js';
import { refusalText } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { exchangeFailureText } from '../kit/exchange-failure-text.js';
import { fetchListPage, LIST_EMPTY, LIST_TITLES, PAGE_SIZE } from './listing-source.js';
import { deskPending, deskPolicy, deskRemoveBank, deskStatus } from './desk-requests.js';
import { deskDelegate } from '../delegation/delegate-command.js';
import { deskTwoFactor } from '../step-up/desk-2fa.js';

const LISTINGS: Record<string, ListName> = {
  withdrawals: 'withdrawals',
  deposits: 'deposits',
  orders: 'orders',
  banks: 'banks',
};

export function deskCommand(ctx: SlackContext): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, respond, context, client }) => {
    const [sub = 'help', ...rest] = command.text.trim().split(/\s+/).filter(Boolean);
    const word = sub.toLowerCase();
    if (word === 'help') {
      await ack({ response_type: 'ephemeral', ...deskHelp(approvalsSentence(ctx.deps.policy)) });
      return;
    }
    // Before the desk-member check: an admin resetting an enrollment need not be on the desk.
    if (word === '2fa') return deskTwoFactor(ctx, { command, ack, client, respond, words: rest });
    if (!ctx.roles.isDeskMember(command.user_id)) {
      await ack({ response_type: 'ephemeral', text: refusalText('not_desk_member') });
      return;
    }
    if (word === 'pending') return deskPending(ctx, ack, respond, rest[0]);
    if (word === 'policy') return deskPolicy(ctx, ack, respond);
    if (word === 'status') return deskStatus(ctx, ack, respond, rest[0]);
    if (word === 'remove-bank')
      return deskRemoveBank(ctx, ack, respond, command.user_id, rest[0], context.retryNum !== undefined);
    if (word === 'delegate') return deskDelegate(ctx, ack, respond, command.user_id, rest);
    if (word === 'fiat') {
      await ack();
      await fiat(ctx, respond);
      return;
    }
    // Own keys only: `/desk __proto__` or `/desk constructor` must get the usage answer, not Object's.
    const list = Object.hasOwn(LISTINGS, word) ? LISTINGS[word] : undefined;
    if (!list) {
      await ack({ response_type: 'ephemeral', ...deskHelp(approvalsSentence(ctx.deps.policy), sub) });
      return;
    }
    await ack();
    const arg = list === 'banks' && rest[0] ? rest[0].toUpperCase() : undefined;
    await postListPage(ctx, respond, list, 0, arg);
  };
}

/** One page of a listing as an ephemeral reply (also used by the More button). */
export async function postListPage(
  ctx: SlackContext,
  respond: RespondFn,
  list: ListName,
  offset: number,
  arg?: string,
): Promise<void> {
  try {
    const fetched = await fetchListPage(ctx.deps.listings, list, offset, PAGE_SIZE, arg);
    const payload = listPage({
      title: LIST_TITLES[list] + (arg ? ` (${arg})` : ''),
      lines: fetched.lines,
      offset,
      ...(fetched.more ? { more: fetched.more } : {}),
      emptyText: LIST_EMPTY[list],
      at: ctx.deps.clock.now(),
      sandbox: ctx.sandbox,
    });
    await respond({ response_type: 'ephemeral', replace_original: false, ...payload });
  } catch (err) {
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      text: exchangeFailureText(LIST_TITLES[list].toLowerCase(), err, ctx.logger),
    });
  }
}

/** Fees and limits per currency, then the first page of fiat withdrawals and deposits. */
async function fiat(ctx: SlackContext, respond: RespondFn): Promise<void> {
  try {
    const ex = ctx.deps.listings;
    const [fees, limits, withdrawals, deposits] = await Promise.all([
      ex.fiatFees(),
      ex.fiatLimits(),
      fetchListPage(ex, 'fiat_withdrawals', 0, 5),
      fetchListPage(ex, 'fiat_deposits', 0, 5),
    ]);
    const payload = fiatOverview({
      terms: { fees, limits },
      withdrawals,
      deposits,
      at: ctx.deps.clock.now(),
      sandbox: ctx.sandbox,
    });
    await respond({ response_type: 'ephemeral', ...payload });
  } catch (err) {
    await respond({ response_type: 'ephemeral', text: exchangeFailureText('fiat records', err, ctx.logger) });
  }
}
