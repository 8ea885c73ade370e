// The story `npm run demo` plays: a withdrawal (own approval refused, double click refused) followed to
// completed, a large withdrawal that waits for risk, a trade re-quoted within its limit between
// approvals, a deposit compliance declares.
import type { FakeSlackCall } from '../fake-slack/fake-slack-api.js';
import { CALLBACK, ACTION, INPUT } from '../../bot/slack/kit/slack-ids.js';
import { SANDBOX_TIMINGS } from '../sandbox/index.js';
import {
  cryptoWithdrawalShown,
  cryptoWithdrawalValues,
  pickOption,
  tradeShown,
  tradeValues,
  type TradeInput,
} from './forms.js';
import { CHANNELS, channelsById, DESK_TIME_ZONE, namesById, PEOPLE, type Person } from './people.js';
import { formatSlackDate, isObject, type RenderContext } from './render.js';
import { Scene } from './scene.js';
import { Screens } from './screens.js';
import { startStage, type Stage } from './stage.js';
import type { Transcript } from './transcript.js';
import { errorText } from '../../bot/domain/error-text.js';

export interface StoryOptions {
  /** Sandbox quote lifetime; the test shortens it so the quote runs out in a fraction of a second. */
  quoteLifetimeMs?: number;
  /** Real time waited past the approvers' quote expiry before the second trade approval (default 300 ms). */
  afterQuoteExpiryMs?: number;
  /** How long each beat may take to show its effect (default 10 s). */
  stepTimeoutMs?: number;
}

/** The story failed; `logs` holds the bot's warn/error lines for the reader. */
export class StoryFailed extends Error {
  override name = 'StoryFailed';
  constructor(
    message: string,
    readonly logs: readonly string[],
  ) {
    super(message);
  }
}

const WITHDRAW_AMOUNT = '0.05';
/** About 130000 USD at the sandbox's BTC-USD: large under the demo's policy, so it waits for risk. */
const LARGE_AMOUNT = '2';
const TRADE: TradeInput = {
  pair: 'BTC-USD',
  side: 'buy',
  quantity: '0.1',
  quantityIn: 'base',
  paymentMethod: 'user_balance',
  slippagePercent: '0.5',
};

/** Play the whole story into `transcript`. Resolves when it is over; rejects with StoryFailed. */
export async function playStory(transcript: Transcript, o: StoryOptions = {}): Promise<void> {
  const stage = await startStage({
    ...(o.quoteLifetimeMs !== undefined ? { quoteLifetimeMs: o.quoteLifetimeMs } : {}),
  });
  try {
    await stage.settle(400);
    await earlierDepositsPosted(stage);
    const ctx: RenderContext = {
      names: namesById(),
      channels: channelsById(),
      tzOffsetSeconds: DESK_TIME_ZONE.tzOffsetSeconds,
      now: () => stage.clock.now(),
    };
    const screens = new Screens(ctx);
    // What was posted while the bot started (earlier deposits in #compliance) is known, not retold.
    screens.seen({ userId: '' }, undefined, stage.slack.calls);
    const scene = new Scene(stage, transcript, screens, o.stepTimeoutMs ?? 10_000);
    intro(transcript, stage);

    await balances(scene);
    const withdrawal = await askWithdrawal(scene, WITHDRAW_AMOUNT);
    await approveWithdrawal(scene, withdrawal);
    await largeWithdrawal(scene);
    await trade(scene, stage, ctx, o.afterQuoteExpiryMs ?? 300);
    await deposit(scene);

    transcript.narrate('The end. Everything above went through the real bot, its stores and the sandbox exchange.');
  } catch (err) {
    const message = errorText(err);
    throw new StoryFailed(message, stage.logs);
  } finally {
    await stage.stop();
  }
}

/** The bot posts the sandbox's deposits awaiting a declaration when it starts; on a busy machine that can come after a quiet spell. */
async function earlierDepositsPosted(stage: Stage, maxMs = 10_000): Promise<void> {
  const awaiting = stage.sandbox.control.deposits().filter((d) => d.travel_rule_status === 'required').length;
  const posted = () =>
    stage.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.channel === CHANNELS.compliance.id && c.args.thread_ts === undefined).length;
  const deadline = Date.now() + maxMs;
  while (posted() < awaiting && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await stage.settle(150);
}

function intro(t: Transcript, stage: Stage): void {
  t.banner(
    `SANDBOX · the exchange is the embedded sandbox at ${stage.sandbox.url} and Slack is a local stand-in: no workspace, no exchange keys, no real funds.`,
  );
  t.banner('Every bot post in Slack also carries a 🧪 SANDBOX banner; the transcript leaves it out.');
  const cast = Object.values(PEOPLE)
    .map((p: Person) => `${p.name} (${p.role})`)
    .join(', ');
  t.banner(
    `Cast: ${cast}. Channels: #${CHANNELS.approvals.name}, #${CHANNELS.compliance.name}. Times are the desk's (${DESK_TIME_ZONE.tz}).`,
  );
  const earlier = stage.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === CHANNELS.compliance.id && c.args.thread_ts === undefined).length;
  if (earlier > 0)
    t.banner(
      `Before the story: the bot posted ${earlier} earlier deposit${earlier === 1 ? '' : 's'} needing counterparty details to #${CHANNELS.compliance.name} (not shown).`,
    );
}

// ---- signs that a beat took effect -----------------------------------------------------------

const answeredTo = (p: Person) => (c: FakeSlackCall) =>
  c.method === 'response_url' && (c.responseUrlId ?? '').startsWith(`${p.id}.`);
const viewUpdated = (viewId: string, callbackId?: string) => (c: FakeSlackCall) =>
  c.method === 'views.update' &&
  c.args.view_id === viewId &&
  (callbackId === undefined || (isObject(c.args.view) && c.args.view.callback_id === callbackId));
const postedIn = (channel: string) => (c: FakeSlackCall) =>
  c.method === 'chat.postMessage' && c.args.channel === channel && c.args.thread_ts === undefined;
const inThread = (ts: string, includes: string) => (c: FakeSlackCall) =>
  c.method === 'chat.postMessage' && c.args.thread_ts === ts && String(c.args.text).includes(includes);
const updated = (ts: string) => (c: FakeSlackCall) => c.method === 'chat.update' && c.args.ts === ts;

/** A block action's container: the open modal as Slack sends it, with what the person has typed in it. */
function modalContainer(form: ReturnType<typeof viewOf>, values: unknown) {
  const { id, hash, private_metadata, callback_id } = form;
  return { type: 'view' as const, viewId: id, view: { hash, private_metadata, callback_id, state: { values } } };
}

function viewOf(call: FakeSlackCall | undefined): {
  id: string;
  hash: string;
  private_metadata: string;
  callback_id: string;
  view: Record<string, unknown>;
} {
  const view = call && (isObject(call.response.view) ? call.response.view : undefined);
  if (!view) throw new Error('the bot showed no modal');
  return {
    id: String(view.id),
    hash: String(view.hash),
    private_metadata: String(view.private_metadata ?? ''),
    callback_id: String(view.callback_id ?? ''),
    view,
  };
}

// ---- 1. balances ---------------------------------------------------------------------------------

async function balances(scene: Scene): Promise<void> {
  scene.transcript.step('Tara checks the balances');
  await scene.act(
    PEOPLE.tara,
    {
      does: `Tara types /balances in #${CHANNELS.commands.name}`,
      until: { call: answeredTo(PEOPLE.tara), what: "the balances (Tara's ephemeral answer)" },
    },
    (cue) =>
      scene.stage.requester.command({
        command: '/balances',
        userId: PEOPLE.tara.id,
        channelId: CHANNELS.commands.id,
        responseUrl: cue.responseUrl,
      }),
  );
}

// ---- 2. the withdrawal request -----------------------------------------------------------------

interface Approvable {
  requestId: string;
  ts: string;
  /** The Approve button's value (request id and the snapshot hash the approvers saw). */
  approveValue: string;
}

async function askWithdrawal(scene: Scene, amount: string): Promise<Approvable> {
  const { requester } = scene.stage;
  const tara = PEOPLE.tara;
  scene.transcript.step(`Tara asks to withdraw ${amount} BTC`);

  const opened = await scene.act(
    tara,
    {
      does: 'Tara types /withdraw crypto: a modal opens at once and fills in when the exchange has answered',
      until: {
        call: (c) =>
          c.method === 'views.update' && isObject(c.args.view) && c.args.view.callback_id === CALLBACK.withdrawCrypto,
        what: 'the filled withdrawal form',
      },
    },
    (cue) =>
      requester.command({
        command: '/withdraw',
        text: 'crypto',
        userId: tara.id,
        channelId: CHANNELS.commands.id,
        responseUrl: cue.responseUrl,
      }),
  );
  let form = viewOf(opened.sign);

  const entry = pickOption(form.view, INPUT.withdrawEntry, 'BTC');
  const choseEntry = await scene.act(
    tara,
    {
      does: `Tara picks "${entry.text}"`,
      show: false,
      until: { call: viewUpdated(form.id), what: 'the form with the BTC destinations' },
    },
    () =>
      requester.blockAction({
        userId: tara.id,
        actionId: INPUT.withdrawEntry,
        blockId: INPUT.withdrawEntry,
        selectedValue: entry.value,
        container: modalContainer(form, cryptoWithdrawalValues({ entry })),
      }),
  );
  form = viewOf(choseEntry.sign);

  const destination = pickOption(form.view, INPUT.withdrawDestination, 'Treasury cold storage');
  const typed = { entry, destination, amount };
  const summed = await scene.act(
    tara,
    {
      does: `Tara picks the verified "${destination.text}" address, types ${amount} and presses Enter`,
      filled: cryptoWithdrawalShown(typed),
      until: { call: viewUpdated(form.id), what: 'the fee and total in the form' },
    },
    () =>
      requester.blockAction({
        userId: tara.id,
        actionId: INPUT.withdrawAmount,
        blockId: INPUT.withdrawAmount,
        container: modalContainer(form, cryptoWithdrawalValues(typed)),
      }),
  );
  form = viewOf(summed.sign);

  const filled = {
    ...typed,
    purpose: 'Treasury rebalancing',
    note: 'Sweep to cold storage after the Friday OTC settlement & fees',
  };
  const submitted = await scene.act(
    tara,
    {
      does: 'Tara adds a purpose and a note for the approvers and clicks Ask for approval',
      viewId: form.id,
      until: { call: postedIn(CHANNELS.approvals.id), what: `the approval message in #${CHANNELS.approvals.name}` },
    },
    () =>
      requester.viewSubmission({
        userId: tara.id,
        callbackId: CALLBACK.withdrawCrypto,
        viewId: form.id,
        privateMetadata: form.private_metadata,
        hash: form.hash,
        values: cryptoWithdrawalValues(filled),
      }),
  );
  return approvable(submitted.sign!);
}

function approvable(post: FakeSlackCall): Approvable {
  const blocks = Array.isArray(post.args.blocks) ? post.args.blocks.filter(isObject) : [];
  const value = (actionId: string): string | undefined => {
    for (const b of blocks)
      for (const e of Array.isArray(b.elements) ? b.elements.filter(isObject) : [])
        if (e.action_id === actionId) return String(e.value);
    return undefined;
  };
  const approveValue = value(ACTION.approve);
  const requestId = value(ACTION.cancel);
  if (!approveValue || !requestId) throw new Error('the approval message has no Approve button');
  return { requestId, ts: String(post.response.ts), approveValue };
}

// ---- 3. approvals and execution ----------------------------------------------------------------

function clickApprove(scene: Scene, who: Person, a: Approvable, beat: Parameters<Scene['act']>[1]) {
  return scene.act(who, beat, (cue) =>
    scene.stage.requester.blockAction({
      userId: who.id,
      actionId: ACTION.approve,
      value: a.approveValue,
      container: { type: 'message', channelId: CHANNELS.approvals.id, messageTs: a.ts },
      responseUrl: cue.responseUrl,
    }),
  );
}

async function approveWithdrawal(scene: Scene, w: Approvable): Promise<void> {
  const { tara, ana, ben } = PEOPLE;
  scene.transcript.step('Two approvals, and the withdrawal goes out');
  await clickApprove(scene, tara, w, {
    does: 'Tara clicks Approve on her own request',
    until: { call: answeredTo(tara), what: "the refusal (Tara's ephemeral answer)" },
  });
  await clickApprove(scene, ana, w, {
    does: 'Ana clicks Approve (and confirms)',
    until: { call: updated(w.ts), what: 'the approval message updated with 1 of 2 approvals' },
  });
  await clickApprove(scene, ana, w, {
    does: 'Ana clicks Approve again',
    until: { call: answeredTo(ana), what: "the refusal (Ana's ephemeral answer)" },
  });
  await clickApprove(scene, ben, w, {
    does: 'Ben clicks Approve: the second approval',
    until: { call: inThread(w.ts, 'Sent to the exchange'), what: 'the withdrawal sent to the exchange (thread post)' },
  });

  const [pending, processing, broadcasted, completed] = SANDBOX_TIMINGS.WITHDRAWAL_TIMELINE;
  const moves: { ms: number; to: string; sign: string; why: string }[] = [
    {
      ms: processing!.afterMs - pending!.afterMs,
      to: 'processing',
      sign: '*processing*',
      why: 'the Travel Rule check clears',
    },
    {
      ms: broadcasted!.afterMs - processing!.afterMs,
      to: 'broadcasted',
      sign: '*broadcasted*',
      why: 'the transaction goes on chain',
    },
    {
      ms: completed!.afterMs - broadcasted!.afterMs,
      to: 'completed',
      sign: '*Completed.*',
      why: 'the network confirms it',
    },
  ];
  for (const m of moves) {
    await scene.happen(
      {
        does: `${m.ms / 1000} s pass on the sandbox exchange (its clock is moved forward): ${m.why}; the bot's polling sees it`,
        until: { call: inThread(w.ts, m.sign), what: `the ${m.to} status in the thread` },
      },
      () => scene.stage.advance(m.ms),
    );
  }
}

// ---- 3b. a large withdrawal waits for risk --------------------------------------------------------

async function largeWithdrawal(scene: Scene): Promise<void> {
  const { ana, ben, rita } = PEOPLE;
  const w = await askWithdrawal(scene, LARGE_AMOUNT);
  scene.transcript.step('A large withdrawal: two treasury approvals, then risk');
  await clickApprove(scene, ana, w, {
    does: 'Ana approves',
    until: { call: updated(w.ts), what: 'the approval message: what each group still owes' },
  });
  await clickApprove(scene, ben, w, {
    does: 'Ben approves: treasury has its two, the request still waits for risk',
    until: { call: updated(w.ts), what: 'the approval message waiting for risk' },
  });
  await clickApprove(scene, rita, w, {
    does: 'Rita, the risk officer, approves',
    until: { call: inThread(w.ts, 'Sent to the exchange'), what: 'the withdrawal sent to the exchange (thread post)' },
  });
}

// ---- 4. the trade and its re-quote -------------------------------------------------------------

async function trade(scene: Scene, stage: Stage, ctx: RenderContext, afterExpiryMs: number): Promise<void> {
  const { tara, ana, ben } = PEOPLE;
  const { requester } = stage;
  scene.transcript.step(`Tara buys ${TRADE.quantity} BTC with USD, at most ${TRADE.slippagePercent}% above the quote`);

  const opened = await scene.act(
    tara,
    {
      does: `Tara types /trade ${TRADE.pair}`,
      until: { call: (c) => c.method === 'views.open', what: 'the trade form' },
    },
    (cue) =>
      requester.command({
        command: '/trade',
        text: TRADE.pair,
        userId: tara.id,
        channelId: CHANNELS.commands.id,
        responseUrl: cue.responseUrl,
      }),
  );
  let form = viewOf(opened.sign);
  const values = tradeValues(TRADE);

  const quoted = await scene.act(
    tara,
    {
      does: `Tara fills in buy ${TRADE.quantity} BTC from the account balance with ${TRADE.slippagePercent}% slippage: the quote is fetched as she types the quantity`,
      filled: tradeShown(TRADE),
      until: { call: viewUpdated(form.id), what: 'the indicative quote in the form' },
    },
    () =>
      requester.blockAction({
        userId: tara.id,
        actionId: INPUT.tradeQuantity,
        blockId: INPUT.tradeQuantity,
        action: {
          type: 'plain_text_input',
          action_id: INPUT.tradeQuantity,
          block_id: INPUT.tradeQuantity,
          value: TRADE.quantity,
          action_ts: String(Date.now() / 1000),
        },
        container: modalContainer(form, values),
      }),
  );
  form = viewOf(quoted.sign);

  const submitted = await scene.act(
    tara,
    {
      does: 'Tara clicks Ask for approval: the bot takes the quote the approvers will see and sets the limit from it',
      viewId: form.id,
      until: {
        call: postedIn(CHANNELS.approvals.id),
        what: `the trade's approval message in #${CHANNELS.approvals.name}`,
      },
    },
    () =>
      requester.viewSubmission({
        userId: tara.id,
        callbackId: CALLBACK.trade,
        viewId: form.id,
        privateMetadata: form.private_metadata,
        hash: form.hash,
        values,
      }),
  );
  const t = approvable(submitted.sign!);

  await clickApprove(scene, ana, t, {
    does: 'Ana approves the trade',
    until: { call: updated(t.ts), what: 'the trade message updated with 1 of 2 approvals' },
  });

  const expiresAt = await quoteExpiry(stage, t.requestId);
  const wait = Math.max(0, expiresAt - stage.clock.now()) + afterExpiryMs;
  const expiry = formatSlackDate(expiresAt / 1000, '{time_secs}', ctx);
  await scene.happen(
    { does: `${(wait / 1000).toFixed(1)} s pass before Ben gets to it: the approvers' quote ran out at ${expiry}` },
    () => new Promise((r) => setTimeout(r, wait)),
  );

  await clickApprove(scene, ben, t, {
    does: 'Ben approves: the quote has expired, so the bot re-quotes and checks the new price against the limit',
    until: { call: inThread(t.ts, 're-quoted'), what: 'the re-quote in the thread' },
  });
  await scene.happen(
    {
      does: `${SANDBOX_TIMINGS.ORDER_COMPLETE_AFTER_MS / 1000} s pass on the sandbox exchange: the order fills`,
      until: { call: inThread(t.ts, '*Completed.*'), what: 'the completed order in the thread' },
    },
    () => stage.advance(SANDBOX_TIMINGS.ORDER_COMPLETE_AFTER_MS),
  );
}

/** When the quote the approvers saw runs out (the engine's record of the request). */
async function quoteExpiry(stage: Stage, requestId: string): Promise<number> {
  const record = await stage.desk.engine.get(requestId);
  const snapshot = record?.snapshot as { quote?: { expiresAt?: number } } | undefined;
  const at = snapshot?.quote?.expiresAt;
  if (typeof at !== 'number') throw new Error(`request ${requestId} has no quote`);
  return at;
}

// ---- 5. compliance --------------------------------------------------------------------------------

async function deposit(scene: Scene): Promise<void> {
  const { cleo } = PEOPLE;
  scene.transcript.step('A deposit arrives that compliance must declare');
  const seen = await scene.happen(
    {
      does: '0.8 BTC arrives from outside (injected in the sandbox); the exchange holds it until someone declares who sent it',
      until: { call: postedIn(CHANNELS.compliance.id), what: `the deposit in #${CHANNELS.compliance.name}` },
    },
    () =>
      void scene.stage.sandbox.control.injectDeposit({ currencyId: 101, amount: '0.8', needsCounterpartyInfo: true }),
  );
  const post = seen.sign!;
  const button = (Array.isArray(post.args.blocks) ? post.args.blocks.filter(isObject) : [])
    .flatMap((b) => (Array.isArray(b.elements) ? b.elements.filter(isObject) : []))
    .find((e) => e.action_id === ACTION.declareCounterparty);
  if (!button) throw new Error('the deposit message has no Declare counterparty button');
  await scene.act(
    cleo,
    {
      does: 'Cleo clicks Declare counterparty',
      until: { call: (c) => c.method === 'views.open', what: "Cleo's declaration form" },
    },
    (cue) =>
      scene.stage.requester.blockAction({
        userId: cleo.id,
        actionId: ACTION.declareCounterparty,
        value: String(button.value),
        container: { type: 'message', channelId: CHANNELS.compliance.id, messageTs: String(post.response.ts) },
        responseUrl: cue.responseUrl,
      }),
  );
}
