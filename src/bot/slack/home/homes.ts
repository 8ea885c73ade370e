// Publishes each user's App Home on open and after changes while they have it; reads only, never commands.
// Who has the tab open is in the shared store: the tab may open on one replica, the notifier run on another.
import type { RequestReads } from '../../engine/request-reads.js';
import type { Clock } from '../../ports/clock.js';
import type { RequestEvent } from '../../ports/events.js';
import type { KeyValueStore } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../domain/error-text.js';
import { isApprover, isDeskMember, mayRequest, type Policy } from '../../domain/policy.js';
import { countsFor, type Delegation } from '../../domain/delegation.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import type { RequestRecord } from '../../domain/record.js';
import { activeDelegations } from '../../engine/delegation/delegations.js';
import { delegateLine, actingDelegateLine } from '../delegation/delegation-lines.js';
import { homeRequestOf, homeView, RECENT_SHOWN, type HomeViewInput } from './home-view.js';

export const HOME_VIEWER_KEY_PREFIX = 'slack:home-viewer:';
/** A viewer's mark is written again when older than this, not on every opening of the tab (each write rewrites the file store). */
const VIEWER_MARK_REFRESH_MS = 24 * 60 * 60 * 1000;

/** What is kept per user who opened App Home: when they last did (the mark is written at most daily). */
export interface HomeViewer {
  at: number;
}

export function homeViewerKey(userId: string): string {
  return `${HOME_VIEWER_KEY_PREFIX}${userId}`;
}

export type PublishClient = {
  views: { publish(args: { user_id: string; view: ReturnType<typeof homeView> }): Promise<unknown> };
};

/** The parts of App Home that come from the desk's records. */
export type HomeData = Pick<HomeViewInput, 'waitingForMe' | 'myOpen' | 'recent'> &
  Partial<Pick<HomeViewInput, 'deliveryProblems' | 'delegationLines' | 'actsAsDelegate'>>;

/** Events after which the App Home of the people concerned is published again. */
const HOME_EVENTS = new Set<RequestEvent['type']>([
  'request.created',
  'approval.counted',
  'approval.recounted',
  'request.approved',
  'request.rejected',
  'request.cancelled',
  'request.expired',
  'trade.awaiting_reapproval',
  'request.completed',
  'execution.failed',
]);

export interface Homes {
  /** The user opened the tab: remember them, and publish theirs. */
  opened(userId: string, client: PublishClient): Promise<void>;
  /** Publish again for a user who has the tab (`client`: the listener's, else the notifier's); failures are logged, never thrown. */
  refresh(userId: string, client?: PublishClient): Promise<void>;
  /** After an event the engine reported: the requester's and the approvers' homes. */
  afterEvent(event: RequestEvent): Promise<void>;
  /** What `userId` is shown (nothing of the desk's business for someone outside it). */
  dataFor(userId: string): Promise<HomeData>;
}

export function createHomes(o: {
  reads: RequestReads;
  policy: Policy;
  clock: Pick<Clock, 'now'>;
  sandbox: boolean;
  logger: Logger;
  client: PublishClient;
  kv: KeyValueStore;
}): Homes {
  // Users who opened App Home: their home is refreshed when requests change.
  const isViewer = async (userId: string) => (await o.kv.get<HomeViewer>(homeViewerKey(userId))) !== undefined;
  async function markViewer(userId: string): Promise<void> {
    const seen = await o.kv.get<HomeViewer>(homeViewerKey(userId));
    const now = o.clock.now();
    if (seen === undefined || now - seen.at > VIEWER_MARK_REFRESH_MS)
      await o.kv.set<HomeViewer>(homeViewerKey(userId), { at: now });
  }

  async function dataFor(userId: string): Promise<HomeData> {
    // Amounts, destinations and bank details are the desk's business only: anyone else sees none.
    if (!isDeskMember(o.policy, userId)) return { waitingForMe: [], myOpen: [], recent: [] };
    const approver = isApprover(o.policy, userId);
    const [waiting, live, recent, problems, delegations] = await Promise.all([
      o.reads.waitingFor(userId),
      o.reads.listLive(),
      // One more than shown, so the view can say that older ones exist.
      o.reads.recent(RECENT_SHOWN + 1),
      approver ? o.reads.deliveryProblems() : Promise.resolve([]),
      activeDelegations(o),
    ]);
    const now = o.clock.now();
    const mine = delegations.find((d) => d.approver === userId);
    const standing = delegations.filter((d) => d.delegate === userId);
    return {
      // A delegate who is not an approver sees what they may approve in someone's place.
      waitingForMe: (approver
        ? waiting
        : live.filter((r) => countsForDelegate(o.policy, r, userId, delegations, now))
      ).map(homeRequestOf),
      myOpen: live.filter((r) => r.requester === userId).map(homeRequestOf),
      recent: recent.map(homeRequestOf),
      deliveryProblems: problems,
      delegationLines: [...(mine ? [delegateLine(mine, now)] : []), ...standing.map((d) => actingDelegateLine(d, now))],
      actsAsDelegate: standing.length > 0,
    };
  }

  async function publish(userId: string, client: PublishClient): Promise<void> {
    const data = await dataFor(userId);
    const view = homeView({
      userId,
      ...data,
      isApprover: isApprover(o.policy, userId) || data.actsAsDelegate === true,
      isRequester: mayRequest(o.policy, userId),
      isDeskMember: isDeskMember(o.policy, userId),
      at: o.clock.now(),
      sandbox: o.sandbox,
    });
    await client.views.publish({ user_id: userId, view });
  }

  async function refresh(userId: string, client: PublishClient = o.client): Promise<void> {
    try {
      if (!(await isViewer(userId))) return;
      await publish(userId, client);
    } catch (err) {
      o.logger.warn(`App Home of ${userId} not refreshed: ${errorText(err)}`);
    }
  }

  return {
    async opened(userId, client) {
      await markViewer(userId);
      await publish(userId, client);
    },
    refresh,
    async afterEvent(event) {
      if (!HOME_EVENTS.has(event.type)) return;
      const delegates = (await activeDelegations(o)).map((d) => d.delegate);
      const people = new Set([event.request.requester, ...o.policy.approvers, ...delegates]);
      for (const userId of people) await refresh(userId);
    },
    dataFor,
  };
}

/** Whether `userId`'s click on `r` would count in an approver's place (domain/delegation.ts decides). */
function countsForDelegate(
  policy: Policy,
  r: RequestRecord,
  userId: string,
  delegations: readonly Delegation[],
  now: number,
): boolean {
  if (!awaitsVerdict(r.state)) return false;
  const counted = countsFor({
    clicker: userId,
    now,
    requester: r.requester,
    approvals: r.approvals,
    delegations,
    isApprover: (id) => isApprover(policy, id),
  });
  return counted.ok && counted.delegate !== undefined;
}
