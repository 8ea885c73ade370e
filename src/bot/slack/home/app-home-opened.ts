/** The App Home tab opened: the user's home is published, and kept fresh while they have it (homes.ts). */
import type { Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackContext } from '../kit/slack-context.js';

export function appHomeOpened(ctx: SlackContext): Middleware<SlackEventMiddlewareArgs<'app_home_opened'>> {
  return async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await ctx.deps.homes.opened(event.user, client);
  };
}
