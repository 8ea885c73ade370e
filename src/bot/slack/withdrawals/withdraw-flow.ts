// Filling a withdrawal modal: the loading view (no Submit button) is replaced only once the exchange's
// data is stored by view id, so no submission can reach any replica before its data is there.
import { noticeView } from '../kit/modal-views.js';
import type { SlackClient, SlackContext } from '../kit/slack-context.js';
import { exchangeFailureText } from '../kit/exchange-failure-text.js';
import { renderWithdrawForm, type WithdrawMeta } from './withdraw-form.js';
import { loadCryptoForm, loadFiatForm, withdrawModals } from './withdraw-data.js';
import { errorText } from '../../domain/error-text.js';

/** Load the data for `meta.k` and replace the open view `viewId` with the filled form. */
export async function fillWithdrawForm(
  ctx: SlackContext,
  client: SlackClient,
  viewId: string,
  hash: string | undefined,
  meta: WithdrawMeta,
): Promise<void> {
  let view;
  try {
    const data = meta.k === 'crypto' ? await loadCryptoForm(ctx.deps.exchange) : await loadFiatForm(ctx.deps.exchange);
    await withdrawModals(ctx.deps).set(viewId, data);
    view = renderWithdrawForm(data, undefined, {
      now: ctx.deps.clock.now(),
      sandbox: ctx.sandbox,
      privateMetadata: JSON.stringify(meta),
    });
  } catch (err) {
    view = noticeView(
      'Withdraw',
      exchangeFailureText('the withdrawal options', err, ctx.logger).replace(/^:warning: /, ''),
    );
  }
  try {
    await client.views.update({ view_id: viewId, ...(hash ? { hash } : {}), view });
  } catch (err) {
    // The person may have closed the modal meanwhile; nothing to do then.
    ctx.logger.info(`withdraw form not updated: ${errorText(err)}`);
  }
}
