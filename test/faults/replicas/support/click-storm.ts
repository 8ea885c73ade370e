/**
 * The click storm (issue 14): `requests` withdrawals asked for in Slack on both replicas (forms
 * opened on one, submitted to the other), then every approval click sent at once, 10 per request:
 * each of the three approvers clicks three times (a repeat is a Slack redelivery half the time,
 * otherwise a second click) and the requester once (refused: their own request), in a seeded order,
 * each to a replica drawn by a seeded load balancer. Then the exchange's ledger and the store.
 */
import { createRng } from '../../../../src/stand-ins/sandbox/prng.js';
import { checkExactlyOnce, type OnceReport } from './exactly-once.js';
import { readStore } from './records.js';
import { DESK_PEOPLE, sendsWithdrawal, type ReplicaSet } from './replica-set.js';
import { approvalMessage, clickApprove, requestWithdrawal, type ApprovalMessage } from './slack-flows.js';
import { poll } from './watch.js';

export const CLICKS_PER_REQUEST = 10;
/** Forms filled at once while the requests are made. */
const FORMS_AT_ONCE = 10;

export interface ClickStorm {
  clicks: number;
  redeliveries: number;
  /** Clicks not answered 200. */
  notAcknowledged: number;
  /** Each click's acknowledgement time (ms), sorted. */
  ackMs: number[];
  /** From the first click until every request was executed. */
  executedMs: number;
  madeMs: number;
  /** Requests whose approvals are not two distinct approvers other than the requester. */
  badApprovals: string[];
  /** Withdrawals each replica sent. */
  sentBy: Record<string, number>;
  once: OnceReport;
}

/** `firstAmount`: whole USDT of the first request (each request its own amount from there). */
export async function runClickStorm(
  set: ReplicaSet,
  o: { requests: number; seed: string; firstAmount?: number },
): Promise<ClickStorm> {
  const rng = createRng(o.seed);
  const { replicas, fake } = set;
  const before = new Set((await set.sandbox.withdrawals()).map((w) => w.id));
  const first = o.firstAmount ?? 1_000;

  const madeAt = Date.now();
  const ids: string[] = [];
  for (let start = 0; start < o.requests; start += FORMS_AT_ONCE) {
    const batch = Array.from({ length: Math.min(FORMS_AT_ONCE, o.requests - start) }, (_, k) => start + k);
    ids.push(
      ...(await Promise.all(
        batch.map((i) =>
          requestWithdrawal(set, replicas[i % 2]!, `${first + i}.50`, {
            submitVia: replicas[(i + 1) % 2]!,
            timeoutMs: 30_000,
          }),
        ),
      )),
    );
  }
  const messages = await Promise.all(ids.map((id) => approvalMessage(fake, id, 30_000)));
  const madeMs = Date.now() - madeAt;

  const [ap1, ap2, ap3] = DESK_PEOPLE.approvers;
  const clicksOn = (m: ApprovalMessage) => {
    const who: string[] = [ap1, ap2, ap3, ap1, ap2, ap3, ap1, ap2, ap3, DESK_PEOPLE.requester];
    // Shuffled: which approver's click lands first differs per request.
    for (let i = who.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [who[i], who[j]] = [who[j]!, who[i]!];
    }
    const seen = new Set<string>();
    return who.map((userId, n) => {
      const redelivery = seen.has(userId) && rng.next() < 0.5;
      seen.add(userId);
      return { m, userId, via: rng.pick(replicas), redelivery, responseId: `storm-${m.requestId}-${n}` };
    });
  };
  const clicks = messages.flatMap(clicksOn);
  const clickedAt = Date.now();
  const answers = await Promise.all(
    clicks.map((c) =>
      clickApprove(fake, c.via, c.userId, c.m, {
        responseId: c.responseId,
        ...(c.redelivery ? { sign: { retry: { num: 1, reason: 'http_timeout' } } } : {}),
      }),
    ),
  );

  const store = await readStore(set.databaseUrl);
  try {
    const mine = async () => (await store.all()).filter((r) => ids.includes(r.id));
    await poll(
      'every request executed',
      async () => ((await mine()).every((r) => r.state === 'submitted' || r.state === 'completed') ? true : undefined),
      60_000,
    );
    const executedMs = Date.now() - clickedAt;
    const badApprovals = (await mine()).flatMap((r) => {
      const approvers = r.approvals.map((a) => a.userId);
      return approvers.length === 2 && new Set(approvers).size === 2 && !approvers.includes(DESK_PEOPLE.requester)
        ? []
        : [`${r.id}: ${approvers.join(',')}`];
    });
    await set.sandbox.advance(61_000);
    await poll(
      'every request completed',
      async () => ((await mine()).every((r) => r.state === 'completed') ? true : undefined),
      30_000,
    ).catch(() => undefined);
    const once = checkExactlyOnce(
      ids,
      await store.all(),
      (await set.sandbox.withdrawals()).filter((w) => !before.has(w.id)),
    );
    return {
      clicks: clicks.length,
      redeliveries: clicks.filter((c) => c.redelivery).length,
      notAcknowledged: answers.filter((a) => a.status !== 200).length,
      ackMs: answers.map((a) => a.elapsedMs).sort((x, y) => x - y),
      executedMs,
      madeMs,
      badApprovals,
      sentBy: Object.fromEntries(replicas.map((r) => [r.name, r.exchangeCalls.filter(sendsWithdrawal).length])),
      once,
    };
  } finally {
    await store.close();
  }
}

/** The q-quantile of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}
