/**
 * Issue 14: a replica cut off from the database. The leader A reaches PostgreSQL through a TCP
 * proxy that is partitioned (nothing passes either way, nothing is closed: the worst kind of cut,
 * where only timeouts tell). While cut off:
 * - it stops executing: no money-moving call leaves it, it steps down (its /readyz says follower
 *   and not ready), and the other replica takes over (the server ends A's session, and its lock,
 *   after idle_session_timeout) and executes what A could not;
 * - it acknowledges nothing it cannot persist: the last approval clicked on A is answered with
 *   an error or not at all (Bolt acks a click at once, empty; the outcome is told only once
 *   stored), a form submitted to A gets no acknowledgement (no "checking…"), and neither is
 *   stored; the person clicks and submits again, the load balancer sends it to B, and it is done
 *   once.
 * Then the network heals: A reconnects as a follower, is ready again, and work sent to it is done.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { refusalReply } from '../../../src/bot/slack/kit/refusal-text.js';
import { INTERNAL_ERROR_TEXT } from '../../../src/bot/slack/kit/reply.js';
import { CALLBACK } from '../../../src/bot/slack/kit/slack-ids.js';
import { REFUSAL_MESSAGES } from '../../../src/bot/domain/refusals.js';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { checkExactlyOnce } from './support/exactly-once.js';
import { readStore, type StoreReader } from './support/records.js';
import {
  bundleReplicas,
  DESK_PEOPLE,
  sendsWithdrawal,
  startReplicaSet,
  type Replica,
  type ReplicaBundles,
  type ReplicaSet,
} from './support/replica-set.js';
import {
  approvalMessage,
  approveUntilCounted,
  clickApprove,
  repliesTo,
  requestWithdrawal,
  withdrawalValues,
} from './support/slack-flows.js';
import { leaderOf, poll } from './support/watch.js';

describePostgres('a replica cut off from the database', () => {
  const pg = usePostgres();
  let bundles: ReplicaBundles;
  let set: ReplicaSet;
  let store: StoreReader;
  beforeAll(async () => {
    bundles = await bundleReplicas();
    set = await startReplicaSet(bundles, { cluster: pg.cluster, seed: 'cut-off', databaseProxy: true });
    store = await readStore(set.databaseUrl);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await set?.stop();
    bundles?.dispose();
  }, 30_000);

  it('stops executing, acknowledges nothing it cannot persist, loses nothing; the other replica does the work, and it does again once reconnected', async () => {
    const [a, b] = set.replicas as [Replica, Replica];
    const { fake } = set;
    expect(await leaderOf([a, b])).toBe(a);
    const before = new Set((await set.sandbox.withdrawals()).map((w) => w.id));
    const read = (id: string) => store.get(id);

    // Before the cut: one withdrawal executed and followed by A, one waiting for its last approval.
    const followed = await requestWithdrawal(set, a, '700.10');
    const followedMessage = await approvalMessage(fake, followed);
    for (const user of DESK_PEOPLE.approvers.slice(0, 2))
      await approveUntilCounted(set, read, followedMessage, user, [b]);
    await poll('the first withdrawal submitted by A', async () =>
      (await read(followed))?.state === 'submitted' ? true : undefined,
    );
    const waiting = await requestWithdrawal(set, b, '700.20');
    const waitingMessage = await approvalMessage(fake, waiting);
    await approveUntilCounted(set, read, waitingMessage, DESK_PEOPLE.approvers[0], [b]);
    const approvedAtCut = await requestWithdrawal(set, b, '700.25');
    const approvedAtCutMessage = await approvalMessage(fake, approvedAtCut);
    await approveUntilCounted(set, read, approvedAtCutMessage, DESK_PEOPLE.approvers[0], [b]);
    // A form opened on B, to be submitted to A while it is cut off.
    const formMark = fake.calls.length;
    await b.slack.command({
      command: '/withdraw',
      text: 'crypto',
      userId: DESK_PEOPLE.requester,
      responseUrl: fake.responseUrl('form'),
      triggerId: 'trigger.cut-off.form',
    });
    const form = await fake.waitFor((c) => c.method === 'views.open' && c.args.trigger_id === 'trigger.cut-off.form', {
      after: formMark,
    });
    const formViewId = (form.response.view as { id: string }).id;
    await fake.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.args.view_id === formViewId &&
        (c.args.view as { callback_id?: string }).callback_id === CALLBACK.withdrawCrypto,
      { after: formMark },
    );

    const callMark = a.exchangeCalls.length;
    const logMark = a.logs().length;
    const cutAt = Date.now();
    a.databaseProxy!.partition();

    // Approved on B the moment A is cut off, while A still believes it leads: A cannot execute it.
    await approveUntilCounted(set, read, approvedAtCutMessage, DESK_PEOPLE.approvers[1], [b]);
    expect((await read(approvedAtCut))?.state).toBe('approved');

    // The last approval of `waiting`, clicked on A.
    const click = await clickApprove(fake, a, DESK_PEOPLE.approvers[1], waitingMessage, { responseId: 'click-on-a' });
    expect(click.status).toBe(200);
    expect(click.text).toBe('');
    // The form, submitted to A: no acknowledgement within Slack's 3 s (Bolt answers 404 after them).
    const values = withdrawalValues(set, '700.30');
    const submitted = await a.slack.viewSubmission({
      userId: DESK_PEOPLE.requester,
      callbackId: CALLBACK.withdrawCrypto,
      viewId: formViewId,
      privateMetadata: JSON.stringify({ k: 'crypto' }),
      values,
    });
    expect(submitted.status).not.toBe(200);
    expect(submitted.elapsedMs).toBeGreaterThanOrEqual(2_900);

    // A steps down (its own line says when): a follower, not ready.
    const stepped = await a.child!.waitFor(
      (e) => a.logs().indexOf(e) >= logMark && e.msg === 'this replica is now a follower: background work stops',
    );
    const steppedDownMs = Date.parse(String(stepped?.t)) - cutAt;
    const stepDown = await poll('A to say it is not ready', async () => {
      const r = await a.readyz();
      return r && r.role === 'follower' && !r.ready ? r : undefined;
    });
    expect(stepDown.failing).toContain('store');
    // B takes over once the server has ended A's session, and executes what was approved at the cut.
    await poll('B to lead', async () => ((await b.readyz())?.role === 'leader' ? true : undefined), 20_000);
    const takeoverMs = Date.now() - cutAt;
    const executedAtCut = await poll(
      'B to execute what was approved at the cut',
      async () => b.exchangeCalls.find((c) => c.at > cutAt && sendsWithdrawal(c)),
      20_000,
    );

    // The person sees no approval counted, clicks again: the load balancer (A is not ready) sends it to B.
    expect((await read(waiting))?.approvals.map((x) => x.userId)).toEqual([DESK_PEOPLE.approvers[0]]);
    await approveUntilCounted(set, read, waitingMessage, DESK_PEOPLE.approvers[1], [b]);
    // And submits the form again, to B: one request.
    const resubmitMark = fake.calls.length;
    const resubmitted = await b.slack.viewSubmission({
      userId: DESK_PEOPLE.requester,
      callbackId: CALLBACK.withdrawCrypto,
      viewId: formViewId,
      privateMetadata: JSON.stringify({ k: 'crypto' }),
      values,
    });
    expect(resubmitted.status).toBe(200);
    const made = await fake.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.args.view_id === formViewId &&
        JSON.stringify(c.args.view).includes('waiting for approval'),
      { after: resubmitMark },
    );
    const formRequest = /`(R[A-Z0-9]+)`/.exec(JSON.stringify(made.args.view))![1]!;
    const formMessage = await approvalMessage(fake, formRequest);
    for (const user of DESK_PEOPLE.approvers.slice(1, 3)) await approveUntilCounted(set, read, formMessage, user, [b]);
    await poll(
      'B to execute all three',
      async () =>
        (await Promise.all([read(approvedAtCut), read(waiting), read(formRequest)])).every(
          (r) => r?.state === 'submitted',
        )
          ? true
          : undefined,
      20_000,
    );
    expect(b.exchangeCalls.filter((c) => c.at > cutAt && sendsWithdrawal(c))).toHaveLength(3);
    // Nothing money-moving left A while it was cut off.
    expect(a.exchangeCalls.slice(callMark).filter((c) => c.line.startsWith('POST '))).toEqual([]);

    // The network heals: A reconnects, a follower, ready; a request sent to it is done.
    const healedAt = Date.now();
    a.databaseProxy!.heal();
    await poll('A ready again', async () => ((await a.readyz())?.ready ? true : undefined), 20_000);
    const backMs = Date.now() - healedAt;
    expect((await a.readyz())?.role).toBe('follower');
    const after = await requestWithdrawal(set, a, '700.40');
    const afterMessage = await approvalMessage(fake, after);
    for (const user of DESK_PEOPLE.approvers.slice(0, 2)) await approveUntilCounted(set, read, afterMessage, user, [a]);
    await poll('the request made on A executed', async () =>
      (await read(after))?.state === 'submitted' ? true : undefined,
    );

    // What A answered the click it could not store: an error, or (its hung write failing only at the
    // heal and tried again then) the refusal of an approval already counted or a request already
    // decided; never a success.
    await new Promise((r) => setTimeout(r, 500));
    const answers = repliesTo(fake, 'click-on-a');
    for (const text of answers)
      expect([
        INTERNAL_ERROR_TEXT,
        refusalReply(REFUSAL_MESSAGES.already_approved),
        refusalReply(REFUSAL_MESSAGES.already_decided),
      ]).toContain(text);

    const ids = [followed, waiting, approvedAtCut, formRequest, after];
    await set.sandbox.advance(61_000);
    await poll(
      'every request completed',
      async () =>
        (await store.all()).filter((r) => ids.includes(r.id)).every((r) => r.state === 'completed') ? true : undefined,
      20_000,
    ).catch(() => undefined);
    const once = checkExactlyOnce(
      ids,
      await store.all(),
      (await set.sandbox.withdrawals()).filter((w) => !before.has(w.id)),
    );
    expect(once.problems).toEqual([]);
    expect(once.duplicates).toBe(0);
    expect(once.notExecuted).toEqual([]);
    expect(once.unfinished).toEqual([]);
    // The form made one request, the click one approval.
    expect(
      (await store.all()).filter((r) => r.snapshot.kind === 'crypto_withdrawal' && r.snapshot.amount === '700.3'),
    ).toHaveLength(1);
    expect((await read(waiting))?.approvals.map((x) => x.userId)).toEqual([
      DESK_PEOPLE.approvers[0],
      DESK_PEOPLE.approvers[1],
    ]);
    console.log(
      `cut off from the database: A stepped down ${steppedDownMs} ms after the cut, B led ${takeoverMs} ms after it and executed what was approved at the cut ${executedAtCut.at - cutAt} ms after it; ` +
        `A's click answered ${answers.length ? answers.map((t) => JSON.stringify(t.slice(0, 40))).join(', ') : 'nothing'}, its form ${submitted.status} after ${Math.round(submitted.elapsedMs)} ms; A ready again ${backMs} ms after the heal`,
    );
  }, 120_000);
});
