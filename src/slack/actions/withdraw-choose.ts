/** The Crypto / Fiat buttons of the withdraw choice modal: show loading, then the chosen form. */
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { loadingView } from '../blocks/modals/common.js';
import type { SlackContext } from '../context.js';
import { fillWithdrawForm } from '../forms/withdraw-flow.js';
import type { WithdrawMeta } from '../forms/withdraw-form.js';
import { CALLBACK } from '../ids.js';
import { readMetadata } from '../view-state.js';
import { stillRequester } from '../forms/requester-only.js';

export function withdrawChooseAction(kind: WithdrawMeta['k']) {
  return (ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> =>
    async ({ ack, body, client }) => {
      await ack();
      const view = body.view;
      if (!view) return;
      if (!(await stillRequester(ctx, client, view, body.user.id, 'Withdraw'))) return;
      const channel = readMetadata<WithdrawMeta>(view.private_metadata).c;
      const meta: WithdrawMeta = { k: kind, ...(channel ? { c: channel } : {}) };
      const loading = await client.views.update({
        view_id: view.id,
        hash: view.hash,
        view: loadingView({ callbackId: CALLBACK.withdrawLoading, title: 'Withdraw', what: 'balances, fees and destinations', privateMetadata: JSON.stringify(meta) }),
      });
      await fillWithdrawForm(ctx, client, view.id, loading.view?.hash, meta);
    };
}
