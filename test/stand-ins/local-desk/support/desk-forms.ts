/**
 * The trader's crypto withdrawal through the local desk's HTTP API, step by step as the page sends
 * it (the command, the asset chosen, the form filled, the submit), for tests and benches that need
 * requests without driving a browser through the form (benches too: nothing here needs vitest).
 */
import type {
  LocalDeskMessage,
  LocalDeskModal,
  Snapshot,
  StateValues,
} from '../../../../src/stand-ins/local-desk/protocol.js';
import { pickOption } from '../../../../src/stand-ins/demo/forms.js';
import { stateOf } from '../../../../src/stand-ins/fake-slack/slack-requests.js';
import { ACTION, CALLBACK, INPUT, dynamicBlockId } from '../../../../src/bot/slack/kit/slack-ids.js';
import { said, WHO, type TestLocalDesk } from './desk.js';

export const topModal = (s: Snapshot): LocalDeskModal | undefined => s.modals.at(-1);
export const callbackOf = (m: LocalDeskModal | undefined) => m?.view.callback_id;
export const hasControl = (m: LocalDeskModal | undefined, actionId: string) =>
  JSON.stringify(m?.view.blocks ?? []).includes(`"action_id":"${actionId}"`);
/** The approval messages (with an Approve button) in the approval channel, oldest first. */
export const approvalMessages = (s: Snapshot) =>
  s.messages.filter(
    (m) => m.channel === WHO.approvalChannel && m.threadTs === undefined && said(m).includes(ACTION.approve),
  );

/** The trader fills the crypto withdrawal form (BTC to the treasury's cold storage), up to the submit. */
export async function fillWithdrawal(
  d: TestLocalDesk,
  amount: string,
): Promise<{ modal: LocalDeskModal; values: StateValues }> {
  accepted(
    'the command',
    await d.api('command', { as: WHO.trader, channel: WHO.deskChannel, text: '/withdraw crypto' }),
  );
  let s = await d.until(
    WHO.trader,
    (x) => callbackOf(topModal(x)) === CALLBACK.withdrawCrypto && hasControl(topModal(x), INPUT.withdrawEntry),
    'the filled withdrawal form',
  );
  const entry = pickOption(topModal(s)!.view, INPUT.withdrawEntry, 'BTC');
  const picked: StateValues = { [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select(entry.value) } };
  const chose = await d.api('action', {
    as: WHO.trader,
    container: { type: 'view', viewId: topModal(s)!.id },
    action: {
      action_id: INPUT.withdrawEntry,
      type: 'static_select',
      selected_option: { text: { type: 'plain_text', text: entry.text }, value: entry.value },
    },
    values: picked,
  });
  accepted('choosing BTC', chose);
  s = await d.until(WHO.trader, (x) => hasControl(topModal(x), INPUT.withdrawDestination), 'the BTC destinations');
  const destination = pickOption(topModal(s)!.view, INPUT.withdrawDestination, 'Treasury cold storage');
  const values: StateValues = {
    ...picked,
    [dynamicBlockId.withdrawDestination(Number(entry.value))]: {
      [INPUT.withdrawDestination]: stateOf.select(destination.value),
    },
    [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
    [INPUT.withdrawPurpose]: { [INPUT.withdrawPurpose]: stateOf.text('Treasury rebalancing') },
    [INPUT.withdrawNote]: { [INPUT.withdrawNote]: stateOf.text('Sweep to cold storage') },
  };
  return { modal: topModal(s)!, values };
}

/** A withdrawal asked for through the desk; resolves with its approval message as an approver sees it. */
export async function askWithdrawal(d: TestLocalDesk, amount = '0.05'): Promise<LocalDeskMessage> {
  const before = approvalMessages(d.snapshot(WHO.ana)).length;
  const { modal, values } = await fillWithdrawal(d, amount);
  const submitted = await d.api('submit', { as: WHO.trader, viewId: modal.id, values });
  // ok without field errors: the form was taken.
  if (submitted.json?.errors) throw new Error(`the submit got field errors: ${JSON.stringify(submitted.json.errors)}`);
  accepted('the submit', submitted);
  const s = await d.until(WHO.ana, (x) => approvalMessages(x).length > before, 'the approval message');
  return approvalMessages(s).at(-1)!;
}

/**
 * The trader closes the bot's "waiting for approval" view once it is there, as a person does
 * before the next command (a views.update to a view already closed is shown as undrawn).
 */
export async function closeWaitingView(d: TestLocalDesk): Promise<void> {
  const s = await d.until(
    WHO.trader,
    (x) => said({ blocks: topModal(x)?.view.blocks as unknown[] }).includes('is waiting for approval'),
    "the bot's waiting-for-approval view",
  );
  accepted('closing it', await d.api('close', { as: WHO.trader, viewId: topModal(s)!.id }));
}

/** The desk answered HTTP 200 { ok: true }, or this throws with what it answered. */
function accepted(what: string, answer: { status: number; json: unknown }): void {
  const json = answer.json as { ok?: unknown } | undefined;
  if (answer.status !== 200 || json?.ok !== true)
    throw new Error(`${what}: the desk answered ${answer.status} ${JSON.stringify(answer.json)}`);
}
