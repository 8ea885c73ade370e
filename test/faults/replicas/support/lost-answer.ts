/**
 * The lost-answer trials (issue 14): two replicas on one database and one exchange; in each trial
 * a crypto withdrawal is asked for and approved in Slack (requests and clicks spread over both
 * replicas, with redeliveries), the exchange commits the withdrawal and its answer never arrives
 * (a `late_commit` that commits at once and never answers, or a `drop_after_commit` that closes
 * the connection), and the replica that sent it (its exchange proxy saw the POST) is SIGKILLed
 * then. Once the survivor leads, the killed replica is started again as a supervisor would; it
 * comes back a follower, and the survivor alone must settle the request (look on the exchange,
 * find the withdrawal, follow it; the proxies show the restarted one neither looked nor sent). At the end the exchange's clock moves past the withdrawals' timeline and every
 * request must be completed, executed exactly once on the exchange's ledger.
 *
 * Seeded (`seed`): the fault, the replica each Slack request goes to, the redeliveries, the
 * amounts and the delay between the commit and the kill.
 */
import type { RequestRecord } from '../../../../src/bot/domain/record.js';
import { createRng } from '../../../../src/stand-ins/sandbox/prng.js';
import type { FaultRule } from '../../../../src/stand-ins/sandbox/index.js';
import { checkExactlyOnce, type OnceReport } from './exactly-once.js';
import { DESK_PEOPLE, readsWithdrawals, sendsWithdrawal, type Replica, type ReplicaSet } from './replica-set.js';
import { readStore, type StoreReader } from './records.js';
import { approvalMessage, clickApprove, requestWithdrawal } from './slack-flows.js';
import { leaderOf, poll } from './watch.js';

const FAULTS: Record<TrialFault, FaultRule> = {
  hang: {
    kind: 'late_commit',
    commitAfterMs: 0,
    answer: 'hang',
    method: 'POST',
    path: '/crypto/withdrawals',
    times: 1,
  },
  drop: { kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 },
};
/** The sandbox's line for the commit of a withdrawal whose answer is lost. */
const COMMITTED = /POST \/public_api\/v1\/crypto\/withdrawals .*fault=(late_commit:committed|drop_after_commit)/;
/** A withdrawal's timeline on the sandbox ends in `completed` 60 s after its creation. */
const WITHDRAWAL_TIMELINE_MS = 61_000;
/** Bounds of each wait: far above what a pass needs, so a failure says where it stuck. */
const STEP_MS = 30_000;

export type TrialFault = 'hang' | 'drop';

export interface TrialOutcome {
  index: number;
  requestId: string | undefined;
  fault: TrialFault;
  /** The replica that sent the withdrawal and was killed. */
  holder: string | undefined;
  /** Whether the holder was the leader when it died (then the survivor took over leadership). */
  holderLed: boolean;
  killDelayMs: number;
  /** From the kill until the survivor's /readyz said leader (when the leader was killed). */
  takeoverMs: number | undefined;
  /** From the kill until the request was submitted again in the store (settled by the survivor). */
  settledMs: number | undefined;
  problems: string[];
}

export interface LostAnswerRun {
  seed: string;
  trials: TrialOutcome[];
  /** The exchange's ledger against every trial's request, after the end. */
  once: OnceReport;
}

export interface LostAnswerOptions {
  seed: string;
  trials: number;
  /** Only this fault (default: drawn per trial, half and half). */
  fault?: TrialFault;
  /** One line per trial, when set. */
  log?: (line: string) => void;
}

export async function runLostAnswerTrials(set: ReplicaSet, o: LostAnswerOptions): Promise<LostAnswerRun> {
  const store = await readStore(set.databaseUrl);
  try {
    const before = new Set((await set.sandbox.withdrawals()).map((w) => w.id));
    const trials: TrialOutcome[] = [];
    // A killed replica starts again while the next trial's request is made (as a supervisor restarts it at once).
    const restarting = new Map<Replica, Promise<void>>();
    for (let index = 0; index < o.trials; index++) {
      const outcome = await runTrial(set, store, restarting, o.seed, index, o.fault);
      trials.push(outcome);
      o.log?.(`trial ${index}: ${JSON.stringify(outcome)}`);
    }
    await Promise.allSettled(restarting.values());
    await set.sandbox.clearFaults();
    await set.sandbox.advance(WITHDRAWAL_TIMELINE_MS);
    const ids = trials.flatMap((t) => (t.requestId ? [t.requestId] : []));
    await poll(
      'every trial request completed',
      async () =>
        (await store.all()).filter((r) => ids.includes(r.id)).every((r) => r.state === 'completed') ? true : undefined,
      STEP_MS,
    ).catch(() => undefined);
    const withdrawals = (await set.sandbox.withdrawals()).filter((w) => !before.has(w.id));
    return { seed: o.seed, trials, once: checkExactlyOnce(ids, await store.all(), withdrawals) };
  } finally {
    await store.close();
  }
}

async function runTrial(
  set: ReplicaSet,
  store: StoreReader,
  restarting: Map<Replica, Promise<void>>,
  seed: string,
  index: number,
  only: TrialFault | undefined,
): Promise<TrialOutcome> {
  const rng = createRng(`${seed}/trial/${index}`);
  const drawn: TrialFault = rng.next() < 0.5 ? 'hang' : 'drop';
  const fault = only ?? drawn;
  const killDelayMs = rng.int(0, 250);
  const outcome: TrialOutcome = {
    index,
    requestId: undefined,
    fault,
    holder: undefined,
    holderLed: false,
    killDelayMs,
    takeoverMs: undefined,
    settledMs: undefined,
    problems: [],
  };
  const replicas = set.replicas;
  /** `r`, once it runs (it may still be starting again after the last trial's kill). */
  const up = async (r: Replica) => {
    await restarting.get(r);
    return r;
  };
  try {
    await set.sandbox.setFaults([FAULTS[fault]]);
    // Each trial's amount is its own: 100 + index whole USDT and seeded cents.
    const amount = `${100 + index}.${String(rng.int(0, 99)).padStart(2, '0')}`;
    const [opener, submitter] = [rng.pick(replicas), rng.pick(replicas)];
    const id = await requestWithdrawal(set, await up(opener), amount, { submitVia: await up(submitter) });
    outcome.requestId = id;
    const message = await approvalMessage(set.fake, id);
    // Both run before the clicks: either may hold the execution, and the other must survive it.
    await Promise.all(restarting.values());
    restarting.clear();
    const leader = await leaderOf(replicas);
    const lineMark = set.sandbox.mark();
    const callMarks = replicas.map((r) => r.exchangeCalls.length);
    const [first, second] =
      rng.next() < 0.5
        ? [DESK_PEOPLE.approvers[0], DESK_PEOPLE.approvers[1]]
        : [DESK_PEOPLE.approvers[2], DESK_PEOPLE.approvers[0]];
    for (const user of [first, second]) {
      const via = rng.pick(replicas);
      await clickApprove(set.fake, via, user, message);
      // Slack redelivers a click now and then, to any replica.
      if (rng.next() < 0.3)
        await clickApprove(set.fake, rng.pick(replicas), user, message, {
          sign: { retry: { num: 1, reason: 'http_timeout' } },
        });
    }
    const committed = await withTimeout(set.sandbox.nextLine(lineMark, COMMITTED), STEP_MS);
    if (!committed) throw new Error('the exchange never committed the withdrawal');
    const holder = replicas.find((r, k) => r.exchangeCalls.slice(callMarks[k]).some(sendsWithdrawal));
    if (!holder) throw new Error('no replica sent the withdrawal');
    outcome.holder = holder.name;
    outcome.holderLed = holder === leader;
    await new Promise((r) => setTimeout(r, killDelayMs));
    const killedAt = Date.now();
    await holder.kill();
    const survivor = replicas.find((r) => r !== holder)!;
    if (outcome.holderLed) {
      await poll(
        'the survivor to lead',
        async () => ((await survivor.readyz())?.role === 'leader' ? true : undefined),
        STEP_MS,
      );
      outcome.takeoverMs = Date.now() - killedAt;
    }
    // A supervisor starts the killed replica again; it comes back a follower, which neither
    // executes nor looks: the survivor settles the request alone (checked below on the wire).
    const holderCalls = holder.exchangeCalls.length;
    restarting.set(holder, restart(holder));
    await poll(
      'the survivor to settle the request',
      async () => (settled(await store.get(id)) ? true : undefined),
      STEP_MS,
    );
    outcome.settledMs = Date.now() - killedAt;
    // The survivor looked and found the withdrawal: it never sent one of its own.
    if (survivor.exchangeCalls.slice(callMarks[replicas.indexOf(survivor)]).some(sendsWithdrawal))
      outcome.problems.push(`the survivor ${survivor.name} sent the withdrawal again`);
    const settledAt = killedAt + outcome.settledMs;
    if (
      holder.exchangeCalls
        .slice(holderCalls)
        .some((c) => c.at <= settledAt && (readsWithdrawals(c) || sendsWithdrawal(c)))
    )
      outcome.problems.push(
        `the restarted ${holder.name} looked for or sent the withdrawal: the survivor did not settle it alone`,
      );
  } catch (err) {
    outcome.problems.push(err instanceof Error ? err.message : String(err));
    // Whatever failed, the next trial starts with both replicas up.
    await Promise.allSettled(restarting.values());
    restarting.clear();
    for (const r of replicas) await restart(r).catch(() => undefined);
  }
  return outcome;
}

/** Handed to the exchange and known there: the unknown outcome is settled. */
function settled(r: RequestRecord | undefined): boolean {
  return (
    r !== undefined &&
    (r.state === 'submitted' || r.state === 'completed') &&
    typeof r.execution?.exchangeId === 'string'
  );
}

async function restart(r: Replica): Promise<void> {
  if (r.child && r.child.proc.exitCode === null && r.child.proc.signalCode === null) return;
  await r.start();
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
  ]).finally(() => clearTimeout(timer));
}
