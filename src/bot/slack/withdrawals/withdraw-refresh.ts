// A choice that changes the rest (asset, network, currency) or Enter in the amount: the form rebuilt from
// cached data with the domain's answer for the amount.
import type { BlockAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackContext } from '../kit/slack-context.js';
import { fillWithdrawForm } from './withdraw-flow.js';
import { renderWithdrawForm, type WithdrawMeta } from './withdraw-form.js';
import { withdrawModals } from './withdraw-data.js';
import { readMetadata } from '../kit/view-state.js';
import { stillRequester } from '../request-forms/requester-only.js';
import { errorText } from '../../domain/error-text.js';

export function withdrawRefreshAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockAction>> {
  return async ({ ack, body, client }) => {
    await ack();
    const view = body.view;
    if (!view) return;
    if (!(await stillRequester(ctx, client, view, body.user.id, 'Withdraw'))) return;
    const meta = readMetadata<WithdrawMeta>(view.private_metadata);
    const data = await withdrawModals(ctx.deps).get(view.id);
    if (!data) {
      // Data gone (expired, or never stored): load again; the person's typed values are kept by Slack.
      if (meta.k === 'crypto' || meta.k === 'fiat')
        await fillWithdrawForm(ctx, client, view.id, view.hash, { k: meta.k, ...(meta.c ? { c: meta.c } : {}) });
      return;
    }
    const next = renderWithdrawForm(data, view.state.values, {
      now: ctx.deps.clock.now(),
      sandbox: ctx.sandbox,
      privateMetadata: view.private_metadata,
    });
    try {
      await client.views.update({ view_id: view.id, hash: view.hash, view: next });
    } catch (err) {
      // hash_conflict: a newer state is already on screen; the next change refreshes again.
      ctx.logger.info(`withdraw form refresh skipped: ${errorText(err)}`);
    }
  };
}
