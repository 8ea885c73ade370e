// Wallet search options. The options are the ack, so this listener cannot ack before the exchange answers:
// past OPTIONS_DEADLINE_MS the list comes back empty and the person types on.
import type { Middleware, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { walletSearchAnswer, WALLET_MIN_QUERY } from './counterparty-modal.js';
import type { SlackContext } from '../kit/slack-context.js';
import { errorText } from '../../domain/error-text.js';

/** Slack waits 3 s for options; leave room for the network. */
export const OPTIONS_DEADLINE_MS = 2_000;

export function walletSearchOptions(ctx: SlackContext): Middleware<SlackOptionsMiddlewareArgs<'block_suggestion'>> {
  return async ({ ack, body }) => {
    const query = body.value.trim();
    if (!ctx.roles.isCompliance(body.user.id) || query.length < WALLET_MIN_QUERY) {
      await ack({ options: [] });
      return;
    }
    try {
      const wallets = await Promise.race([
        ctx.deps.exchange.knownWallets({ name: query.slice(0, 100) }),
        ctx.deps.clock.sleep(OPTIONS_DEADLINE_MS).then(() => 'timeout' as const),
      ]);
      if (wallets === 'timeout') {
        ctx.logger.warn('known-wallet search took too long; answered no options');
        await ack({ options: [] });
        return;
      }
      await ack(walletSearchAnswer(wallets));
    } catch (err) {
      ctx.logger.warn(`known-wallet search failed: ${errorText(err)}`);
      await ack({ options: [] });
    }
  };
}
