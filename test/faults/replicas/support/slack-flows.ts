/**
 * What people do in Slack, sent to the replica a load balancer picked: a crypto withdrawal asked
 * for with /withdraw and its form, and clicks on the approval message the leader posted. Each
 * flow follows its own modal by the trigger id it sent, so many run at once.
 */
import type { FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';
import {
  stateOf,
  type SignOptions,
  type SlackResponse,
  type StateValues,
} from '../../../../src/stand-ins/fake-slack/slack-requests.js';
import { ACTION, CALLBACK, dynamicBlockId, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { blocksOf, buttonValue } from '../../../e2e/support/test-bot.js';
import { APPROVAL_CHANNEL, DESK_PEOPLE, type Replica, type ReplicaSet } from './replica-set.js';

/** A request's approval message as Slack shows it: where it is and what its Approve button carries. */
export interface ApprovalMessage {
  requestId: string;
  ts: string;
  approveValue: string;
}

let flows = 0;

/**
 * /withdraw crypto on `via`, the form filled with `amount` of USDT to the partner address and
 * submitted on `submitVia` (default the same replica): resolves with the request id the modal shows.
 */
export async function requestWithdrawal(
  set: ReplicaSet,
  via: Replica,
  amount: string,
  o: { submitVia?: Replica; note?: string; timeoutMs?: number } = {},
): Promise<string> {
  const { fake } = set;
  const triggerId = `trigger.replicas.${++flows}.${Date.now()}`;
  const mark = fake.calls.length;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const res = await via.slack.command({
    command: '/withdraw',
    text: 'crypto',
    userId: DESK_PEOPLE.requester,
    responseUrl: fake.responseUrl(`withdraw-${flows}`),
    triggerId,
  });
  if (res.status !== 200) throw new Error(`/withdraw on ${via.name}: HTTP ${res.status}`);
  const opened = await fake.waitFor((c) => c.method === 'views.open' && c.args.trigger_id === triggerId, {
    after: mark,
    timeoutMs,
  });
  const viewId = (opened.response.view as { id: string }).id;
  await fake.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.args.view_id === viewId &&
      (c.args.view as { callback_id?: string }).callback_id === CALLBACK.withdrawCrypto,
    { after: mark, timeoutMs },
  );
  const values = withdrawalValues(set, amount, o.note);
  const submitted = await (o.submitVia ?? via).slack.viewSubmission({
    userId: DESK_PEOPLE.requester,
    callbackId: CALLBACK.withdrawCrypto,
    viewId,
    privateMetadata: JSON.stringify({ k: 'crypto' }),
    values,
  });
  if (submitted.status !== 200)
    throw new Error(`withdrawal form on ${(o.submitVia ?? via).name}: HTTP ${submitted.status}`);
  const done = await fake.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.args.view_id === viewId &&
      JSON.stringify(c.args.view).includes('waiting for approval'),
    { after: mark, timeoutMs },
  );
  const id = /`(R[A-Z0-9]+)`/.exec(JSON.stringify(done.args.view))?.[1];
  if (!id) throw new Error(`no request id in ${JSON.stringify(done.args.view).slice(0, 500)}`);
  return id;
}

/** The crypto withdrawal form filled: `amount` of USDT (TRC20) to the partner address. */
export function withdrawalValues(set: ReplicaSet, amount: string, note = `replicas ${amount}`): StateValues {
  const { cryptoCurrencyId, addressBookId } = set.target;
  return {
    [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select(String(cryptoCurrencyId)) },
    [dynamicBlockId.withdrawDestination(cryptoCurrencyId)]: {
      [INPUT.withdrawDestination]: stateOf.select(addressBookId),
    },
    [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
    [INPUT.withdrawNote]: { [INPUT.withdrawNote]: stateOf.text(note) },
  };
}

/** The approval message of `requestId`, once the leader has posted it. */
export async function approvalMessage(
  fake: FakeSlackApi,
  requestId: string,
  timeoutMs = 10_000,
): Promise<ApprovalMessage> {
  const post = await fake.waitFor(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.args.channel === APPROVAL_CHANNEL &&
      c.args.thread_ts === undefined &&
      (buttonValue(blocksOf(c), ACTION.approve) ?? '').startsWith(`${requestId}:`),
    { timeoutMs },
  );
  return { requestId, ts: String(post.response.ts), approveValue: buttonValue(blocksOf(post), ACTION.approve)! };
}

/** `userId` clicks Approve on the message, the click delivered to `via` (a redelivery when `sign.retry` is set). */
export function clickApprove(
  fake: FakeSlackApi,
  via: Replica,
  userId: string,
  message: ApprovalMessage,
  o: { responseId?: string; sign?: SignOptions } = {},
): Promise<SlackResponse> {
  return via.slack.blockAction(
    {
      userId,
      actionId: ACTION.approve,
      value: message.approveValue,
      container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: message.ts },
      responseUrl: fake.responseUrl(o.responseId ?? `approve-${message.requestId}-${userId}`),
    },
    o.sign,
  );
}

/** What the bot answered a click through its response_url id, as text. */
export function repliesTo(fake: FakeSlackApi, responseId: string): string[] {
  return fake.calls
    .filter((c) => c.responseUrlId === responseId)
    .map((c) => String(c.args.text ?? JSON.stringify(c.args)));
}

/**
 * An approver who makes sure their approval counted, as a person does: click (on `vias` in turn,
 * the load balancer's picks), then watch the message (here: the shared store) for the approval;
 * no sign of it within `patienceMs` (an error answer, no answer, an unreachable replica), click
 * again. Returns how many clicks it took. A request that left `pending` meanwhile needs no click.
 */
export async function approveUntilCounted(
  set: ReplicaSet,
  read: (id: string) => Promise<RequestRecord | undefined>,
  message: ApprovalMessage,
  userId: string,
  vias: readonly Replica[],
  o: { patienceMs?: number; deadlineMs?: number } = {},
): Promise<number> {
  const deadline = Date.now() + (o.deadlineMs ?? 30_000);
  const counted = async () => {
    const r = await read(message.requestId).catch(() => undefined);
    return r !== undefined && (r.state !== 'pending' || r.approvals.some((a) => a.userId === userId));
  };
  for (let clicks = 1; Date.now() < deadline; clicks++) {
    const via = vias[(clicks - 1) % vias.length]!;
    await clickApprove(set.fake, via, userId, message, {
      responseId: `approve-${message.requestId}-${userId}-${clicks}`,
    }).catch(() => undefined);
    const until = Date.now() + (o.patienceMs ?? 1_500);
    while (Date.now() < until) {
      if (await counted()) return clicks;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${userId}'s approval of ${message.requestId} never counted`);
}
