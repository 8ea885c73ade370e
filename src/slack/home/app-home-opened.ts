/** Publishes the App Home tab whenever a user opens it. */
import type { Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import { homeView } from '../blocks/home.js';
import type { SlackContext } from '../context.js';

export function appHomeOpened(ctx: SlackContext): Middleware<SlackEventMiddlewareArgs<'app_home_opened'>> {
  return async ({ event, client }) => {
    if (event.tab !== 'home') return;
    const userId = event.user;
    await publishHome(ctx, client, userId);
  };
}

/** Build and publish one user's App Home (also called after changes once the engine is wired). */
export async function publishHome(ctx: SlackContext, client: { views: { publish(args: { user_id: string; view: ReturnType<typeof homeView> }): Promise<unknown> } }, userId: string): Promise<void> {
  const data = ctx.deps.homeData ? await ctx.deps.homeData(userId) : { waitingForMe: [], myOpen: [], recent: [] };
  const view = homeView({
    userId,
    ...data,
    isApprover: ctx.roles.isApprover(userId),
    isRequester: ctx.roles.isRequester(userId),
    at: ctx.deps.clock.now(),
    sandbox: ctx.sandbox,
  });
  await client.views.publish({ user_id: userId, view });
}
