/**
 * The takeover after the leader dies (issue 14: within 15 s): with a withdrawal submitted and
 * followed, and another one approved by its first approver, the leader is SIGKILLed; the last
 * approval then reaches the survivor, a follower, which leaves the request approved for the leader
 * to execute. Measured from the kill: when the survivor says it leads (its own log line, and its
 * /readyz), when it sends the approved withdrawal (its exchange proxy sees the POST) and when it
 * polls (its first read of the withdrawals). Then the killed replica is started again, now a
 * follower, and the next kill takes the other one.
 */
import { DESK_PEOPLE, readsWithdrawals, sendsWithdrawal, type ExchangeCall, type ReplicaSet } from './replica-set.js';
import { approvalMessage, clickApprove, requestWithdrawal } from './slack-flows.js';
import { leaderOf, poll } from './watch.js';

const LEADER_LINE = 'this replica is now the leader: background work starts';
/** A bound on each wait, past the 15 s the issue allows, so a slow takeover is measured, not cut. */
const WAIT_MS = 30_000;

export interface Takeover {
  killed: string;
  survivor: string;
  /** Kill -> the survivor's "now the leader" line (its own clock, the same machine's). */
  leaderMs: number;
  /** Kill -> its /readyz answering role leader (polled every 50 ms). */
  readyzLeaderMs: number;
  /** Kill -> the survivor sending the withdrawal approved on it after the kill. */
  executedMs: number;
  /** Kill -> the survivor's first read of the withdrawals (polling, or the execution's checks). */
  polledMs: number;
}

export interface TakeoverRun {
  takeovers: Takeover[];
  /** The withdrawals the run asked for (to check on the exchange's ledger). */
  requestIds: string[];
}

/** `kills` takeovers in a row, the leader killed each time; amounts from `firstAmount` up (one each). */
export async function measureTakeovers(set: ReplicaSet, kills: number, firstAmount = 500): Promise<TakeoverRun> {
  const { fake, replicas } = set;
  let amount = firstAmount;
  // Something to follow from the start: a withdrawal submitted before the first kill.
  const followed = await requestWithdrawal(set, replicas[0]!, `${amount++}.00`);
  const followedMessage = await approvalMessage(fake, followed);
  for (const user of DESK_PEOPLE.approvers.slice(0, 2))
    await clickApprove(fake, replicas[1 % replicas.length]!, user, followedMessage);

  const takeovers: Takeover[] = [];
  const requestIds = [followed];
  for (let k = 0; k < kills; k++) {
    const leader = await leaderOf(replicas);
    const survivor = replicas.find((r) => r !== leader)!;
    const id = await requestWithdrawal(set, survivor, `${amount++}.00`);
    requestIds.push(id);
    const message = await approvalMessage(fake, id);
    await clickApprove(fake, survivor, DESK_PEOPLE.approvers[0], message);

    const logMark = survivor.logs().length;
    const callMark = survivor.exchangeCalls.length;
    const killedAt = Date.now();
    await leader.kill();
    // The last approval, on the follower: nothing executes it until the survivor leads.
    await clickApprove(fake, survivor, DESK_PEOPLE.approvers[1], message);

    const leads = await survivor.child!.waitFor((e) => survivor.logs().indexOf(e) >= logMark && e.msg === LEADER_LINE);
    if (!leads) throw new Error(`${survivor.name} exited before it led`);
    await poll(
      `${survivor.name}'s /readyz to say leader`,
      async () => ((await survivor.readyz())?.role === 'leader' ? true : undefined),
      WAIT_MS,
    );
    const readyzLeaderMs = Date.now() - killedAt;
    const call = (match: (c: ExchangeCall) => boolean) =>
      poll(
        `${survivor.name} to call the exchange`,
        async () => survivor.exchangeCalls.slice(callMark).find(match),
        WAIT_MS,
      );
    const executed = await call(sendsWithdrawal);
    const polled = await call(readsWithdrawals);
    takeovers.push({
      killed: leader.name,
      survivor: survivor.name,
      leaderMs: Date.parse(String(leads.t)) - killedAt,
      readyzLeaderMs,
      executedMs: executed.at - killedAt,
      polledMs: polled.at - killedAt,
    });
    await leader.start();
  }
  return { takeovers, requestIds };
}
