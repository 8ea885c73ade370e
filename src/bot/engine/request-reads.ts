/**
 * What the desk's screens read (App Home, `/desk pending`, the approval buttons' checks): the
 * stored requests and the outbox, seen through the policy. Reads only, so the Slack side can be
 * given them before the engine exists (the engine reports through the Slack notifier, and App
 * Home refreshes read these): no cycle to close by hand.
 */
import { awaitsVerdict } from '../domain/state-machine.js';
import { isApprover, longestWindow, roomLeft, usedUnder, type Limit, type Policy } from '../domain/policy.js';
import type { RequestRecord } from '../domain/record.js';
import type { Clock } from '../ports/clock.js';
import type { OutboxEntry, Repository } from '../ports/store.js';
import { isRequestEvent } from '../ports/events.js';

export interface RequestReads {
  get(requestId: string): Promise<RequestRecord | undefined>;
  /** Open and in-flight requests. */
  listLive(): Promise<RequestRecord[]>;
  /** Finished requests, most recent first. */
  recent(limit: number): Promise<RequestRecord[]>;
  /** Requests `userId` could approve now, or decide on (an unknown outcome waiting for a person), for App Home. */
  waitingFor(userId: string): Promise<RequestRecord[]>;
  /** Messages Slack keeps refusing (for approvers, in App Home). */
  deliveryProblems(): Promise<DeliveryProblem[]>;
  /** Each limit of the policy now: what its window has used and the room left (/desk policy). */
  limitsNow(): Promise<LimitNow[]>;
}

export interface LimitNow {
  limit: Limit;
  used: string;
  room: string;
}

/** Never a request id (they are short and alphanumeric): the id mutateInScope is given to read its view. */
const VIEW_ONLY_ID = '~limits-view';

export function createRequestReads(deps: {
  requests: Repository<RequestRecord>;
  policy: Policy;
  clock: Pick<Clock, 'now'>;
}): RequestReads {
  const { requests, policy, clock } = deps;
  return {
    get: (requestId) => requests.get(requestId),
    listLive: () => requests.listLive(),
    recent: (limit) => requests.recentHistory(limit),
    waitingFor: async (userId) =>
      (await requests.listLive()).filter(
        (r) =>
          r.requester !== userId &&
          isApprover(policy, userId) &&
          ((awaitsVerdict(r.state) && !r.approvals.some((a) => a.userId === userId)) ||
            (r.state === 'unknown' && r.execution?.inDoubt?.question != null)),
      ),
    deliveryProblems: async () => deliveryProblemsOf(await requests.outbox.pending(), clock.now()),
    limitsNow: async () => {
      if (policy.limits.length === 0) return [];
      const now = clock.now();
      // The same view the approvals count against, read under the same lock; nothing is written.
      const records = await requests.mutateInScope(
        { since: now - longestWindow(policy) },
        VIEW_ONLY_ID,
        (_c, others) => ({
          result: others,
        }),
      );
      return policy.limits.map((limit) => {
        const used = usedUnder(limit, records, now);
        return { limit, used, room: roomLeft(limit, used) };
      });
    },
  };
}

/** What approvers are shown about messages Slack keeps refusing. */
export interface DeliveryProblem {
  requestId: string;
  event: string;
  error: string;
  since: number;
  attempts: number;
  permanent: boolean;
}

/** Requests' entries Slack refused for good, or has refused for a minute or more: what approvers are shown. */
export function deliveryProblemsOf(pending: readonly OutboxEntry[], now: number): DeliveryProblem[] {
  return pending
    .filter(
      (e) => isRequestEvent(e.event) && e.failingSince !== null && (e.permanent || now - e.failingSince >= 60_000),
    )
    .map((e) => ({
      requestId: e.requestId,
      event: e.event.type,
      error: e.lastError ?? 'unknown',
      since: e.failingSince!,
      attempts: e.attempts,
      permanent: e.permanent,
    }));
}
