/** The Crypto / Fiat buttons of the withdraw choice modal: show loading, then the chosen form. */
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { loadingView } from '../kit/modal-views.js';
import type { SlackContext } from '../kit/slack-context.js';
import { fillWithdrawForm } from './withdraw-flow.js';
import type { WithdrawMeta } from './withdraw-form.js';
import { CALLBACK } from '../kit/slack-ids.js';
import { readMetadata } from '../kit/view-state.js';
import { stillRequester } from '../request-forms/requester-only.js';

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
        view: loadingView({
          callbackId: CALLBACK.withdrawLoading,
          title: 'Withdraw',
          what: 'balances, fees and destinations',
          privateMetadata: JSON.stringify(meta),
        }),
      });
      await fillWithdrawForm(ctx, client, view.id, loading.view?.hash, meta);
    };
}
