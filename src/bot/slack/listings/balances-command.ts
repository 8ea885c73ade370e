/** `/balances [ASSET]`: acknowledged at once, then the table as an ephemeral reply. */
import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { balanceRow, balancesMessage } from './balances-table.js';
import { refusalText } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { exchangeFailureText } from '../kit/exchange-failure-text.js';

const ASSET = /^[A-Za-z0-9]{1,15}$/;

export function balancesCommand(ctx: SlackContext): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, respond }) => {
    if (!ctx.roles.isDeskMember(command.user_id)) {
      await ack({ response_type: 'ephemeral', text: refusalText('not_desk_member') });
      return;
    }
    const arg = command.text.trim();
    if (arg !== '' && !ASSET.test(arg)) {
      await ack({ response_type: 'ephemeral', text: 'Usage: `/balances` or `/balances BTC` (an asset code).' });
      return;
    }
    // Acknowledge before any exchange call: Slack gives up after 3 seconds.
    await ack();
    const asset = arg === '' ? undefined : arg.toUpperCase();
    try {
      const balances = await ctx.deps.exchange.balances(asset ? { currency: asset } : undefined);
      const rows = balances.map(balanceRow).filter((r) => !asset || r.currency.toUpperCase() === asset);
      const payload = balancesMessage({
        rows,
        ...(asset ? { asset } : {}),
        at: ctx.deps.clock.now(),
        sandbox: ctx.sandbox,
      });
      await respond({ response_type: 'ephemeral', ...payload });
    } catch (err) {
      await respond({ response_type: 'ephemeral', text: exchangeFailureText('balances', err, ctx.logger) });
    }
  };
}
