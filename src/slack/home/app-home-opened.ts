/**
 * App Home for each user: requests waiting for my approval (with the buttons), my open requests,
 * recent activity, from the approval engine. Published when the user opens the tab, and again
 * after a change to a request while they have it (refreshHome, called by the notifier hook and
 * after a click in the tab).
 */
import type { Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import { homeRequestOf } from '../blocks/from-record.js';
import { homeView } from '../blocks/home.js';
import type { HomeData, SlackContext } from '../context.js';
import { errorText } from '../../domain/error-text.js';

/** Finished requests shown under "Recent activity". */
export const RECENT_LIMIT = 10;

export function appHomeOpened(ctx: SlackContext): Middleware<SlackEventMiddlewareArgs<'app_home_opened'>> {
  return async ({ event, client }) => {
    if (event.tab !== 'home') return;
    ctx.homeViewers.add(event.user);
    await publishHome(ctx, client, event.user);
  };
}

type PublishClient = { views: { publish(args: { user_id: string; view: ReturnType<typeof homeView> }): Promise<unknown> } };

/** What the engine says about `userId`'s requests. */
export async function homeDataFor(ctx: SlackContext, userId: string): Promise<HomeData> {
  // Amounts, destinations and bank details are the desk's business only: anyone else sees none.
  if (!ctx.roles.isDeskMember(userId)) return { waitingForMe: [], myOpen: [], recent: [] };
  if (ctx.deps.homeData) return ctx.deps.homeData(userId);
  const desk = ctx.deps.desk;
  if (!desk) return { waitingForMe: [], myOpen: [], recent: [] };
  const approver = ctx.roles.isApprover(userId);
  const [waiting, live, recent, problems] = await Promise.all([desk.waitingFor(userId), desk.listLive(), desk.recent(RECENT_LIMIT), approver ? desk.deliveryProblems() : Promise.resolve([])]);
  return {
    waitingForMe: waiting.map(homeRequestOf),
    myOpen: live.filter((r) => r.requester === userId).map(homeRequestOf),
    recent: recent.map(homeRequestOf),
    deliveryProblems: problems,
  };
}

/** Build and publish one user's App Home. */
export async function publishHome(ctx: SlackContext, client: PublishClient, userId: string): Promise<void> {
  const data = await homeDataFor(ctx, userId);
  const view = homeView({
    userId,
    ...data,
    isApprover: ctx.roles.isApprover(userId),
    isRequester: ctx.roles.isRequester(userId),
    isDeskMember: ctx.roles.isDeskMember(userId),
    at: ctx.deps.clock.now(),
    sandbox: ctx.sandbox,
  });
  await client.views.publish({ user_id: userId, view });
}

/** Publish again for a user who has the tab; failures are logged, never thrown. */
export async function refreshHome(ctx: SlackContext, client: PublishClient, userId: string): Promise<void> {
  if (!ctx.homeViewers.has(userId)) return;
  try {
    await publishHome(ctx, client, userId);
  } catch (err) {
    ctx.logger.warn(`App Home of ${userId} not refreshed: ${errorText(err)}`);
  }
}
