/**
 * The local desk's server with the real bot behind it (as `npm start` runs it with nothing
 * configured): what a person does goes through the desk's HTTP API, as the page sends it, to the
 * bot's real HTTP receiver as signed Slack requests; what the bot says to the fake Slack comes
 * back folded into each person's snapshot. No browser here (test/browser has the page's story).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalDeskMessage, Snapshot } from '../../../src/stand-ins/local-desk/protocol.js';
import { ROUTES } from '../../../src/stand-ins/local-desk/protocol.js';
import { SANDBOX_TIMINGS } from '../../../src/stand-ins/sandbox/index.js';
import { ACTION, CALLBACK, INPUT } from '../../../src/bot/slack/kit/slack-ids.js';
import { REFUSAL_MESSAGES } from '../../../src/bot/domain/refusals.js';
import { refusalText } from '../../../src/bot/slack/kit/refusal-text.js';
import { said, startTestLocalDesk, WHO, type TestLocalDesk } from './support/desk.js';
import { approvalMessages, askWithdrawal, callbackOf, fillWithdrawal, topModal } from './support/desk-forms.js';

let d: TestLocalDesk;
beforeAll(async () => {
  d = await startTestLocalDesk();
});
afterAll(async () => {
  await d?.stop();
});

const inChannel = (s: Snapshot, channel: string) => s.messages.filter((m) => m.channel === channel);

function approve(as: string, m: LocalDeskMessage) {
  return d.api('action', {
    as,
    container: { type: 'message', channel: m.channel, ts: m.ts },
    action: { action_id: ACTION.approve },
  });
}

describe('the local desk, with the real bot behind it', () => {
  it("a command's modal opens in that person's stack and no one else's; the command shows to them alone", async () => {
    const { modal } = await fillWithdrawal(d, '0.01');
    expect(modal.view.type).toBe('modal');
    expect((modal.view.title as { text: string }).text).toBe('Crypto withdrawal');
    for (const other of [WHO.ana, WHO.compliance, WHO.outsider]) expect(d.snapshot(other).modals).toEqual([]);
    const typed = (s: Snapshot) =>
      s.messages.filter((m) => m.author.kind === 'person' && m.text === '/withdraw crypto');
    expect(typed(d.snapshot(WHO.trader)).at(-1)).toMatchObject({
      channel: WHO.deskChannel,
      author: { kind: 'person', id: WHO.trader },
    });
    expect(typed(d.snapshot(WHO.ana))).toEqual([]);
    // Closing it: gone from the stack.
    expect((await d.api('close', { as: WHO.trader, viewId: modal.id })).json).toEqual({ ok: true });
    expect(d.snapshot(WHO.trader).modals).toEqual([]);
  });

  it("a submit with a bad amount folds the bot's field error into the modal, which stays open", async () => {
    const { modal, values } = await fillWithdrawal(d, 'twelve');
    const answer = await d.api('submit', { as: WHO.trader, viewId: modal.id, values });
    expect(answer.status).toBe(200);
    expect(answer.json.ok).toBe(true);
    expect(Object.keys(answer.json.errors)).toEqual([INPUT.withdrawAmount]);
    const shown = topModal(d.snapshot(WHO.trader))!;
    expect(shown.id).toBe(modal.id);
    expect(shown.errors).toEqual(answer.json.errors);
    await d.api('close', { as: WHO.trader, viewId: modal.id });
  });

  it("the trader's own Approve is refused with the bot's words, only to the trader; two approvers approve; moving sandbox time on completes it", async () => {
    const request = await askWithdrawal(d);
    // Everyone who sees the channel sees the request; the modal became the bot's "waiting for approval" view.
    expect(approvalMessages(d.snapshot(WHO.outsider)).at(-1)?.ts).toBe(request.ts);

    expect((await approve(WHO.trader, request)).json).toEqual({ ok: true });
    const refusal = (s: Snapshot) =>
      s.messages.find((m) => m.ephemeral && said(m).includes(REFUSAL_MESSAGES.own_request));
    const seen = await d.until(WHO.trader, (s) => refusal(s) !== undefined, "the trader's refusal");
    expect(refusal(seen)).toMatchObject({ channel: WHO.approvalChannel, ephemeral: true, author: { kind: 'bot' } });
    for (const other of [WHO.ana, WHO.ben, WHO.outsider]) expect(refusal(d.snapshot(other))).toBeUndefined();

    await approve(WHO.ana, request);
    await approve(WHO.ben, request);
    const thread = (s: Snapshot) =>
      s.messages
        .filter((m) => m.threadTs === request.ts)
        .map(said)
        .join('\n');
    await d.until(WHO.ana, (s) => thread(s).includes('Sent to the exchange'), 'the withdrawal sent (thread)');

    // The sandbox panel moves the exchange's clock, and the bot's polling (on the same clock) follows.
    const before = (await d.get(ROUTES.sandbox)).json.now as number;
    const total = SANDBOX_TIMINGS.WITHDRAWAL_TIMELINE.at(-1)!.afterMs;
    const moved = await d.post(`${ROUTES.sandbox}/advance`, { ms: total });
    expect(moved.status).toBe(200);
    expect(moved.json.now).toBeGreaterThanOrEqual(before + total);
    expect(d.preview.runOptions.clock.now()).toBeGreaterThanOrEqual(before + total);
    await d.until(WHO.trader, (s) => thread(s).includes('*Completed.*'), 'the completed withdrawal in the thread');
    const updated = d.snapshot(WHO.ben).messages.find((m) => m.ts === request.ts)!;
    expect(updated.edited).toBe(true);
  });

  it("an outsider's command gets the bot's refusal, to them alone; an unknown command is refused as Slack does", async () => {
    await d.api('command', { as: WHO.outsider, channel: WHO.deskChannel, text: '/withdraw crypto' });
    const refused = (s: Snapshot) =>
      s.messages.find(
        (m) => m.ephemeral && m.channel === WHO.deskChannel && said(m).includes(refusalText('not_requester')),
      );
    const s = await d.until(WHO.outsider, (x) => refused(x) !== undefined, "the outsider's refusal");
    expect(s.modals).toEqual([]);
    expect(d.snapshot(WHO.trader).messages.filter((m) => m.ts === refused(s)!.ts)).toEqual([]);

    const unknown = await d.api('command', { as: WHO.trader, channel: WHO.deskChannel, text: '/launch rockets' });
    expect(unknown).toEqual({
      status: 200,
      json: { ok: false, error: expect.stringContaining('/launch is not a valid command') },
    });
  });

  it("compliance's Declare button opens the declaration on their screen; the wallet search answers suggestions; an outsider's Declare is refused to them alone", async () => {
    const deposit = (s: Snapshot) =>
      s.messages.find(
        (m) =>
          m.channel === WHO.complianceChannel &&
          m.threadTs === undefined &&
          said(m).includes(ACTION.declareCounterparty),
      );
    const posted = await d.until(
      WHO.compliance,
      (s) => deposit(s) !== undefined,
      'a deposit to declare in #compliance',
    );
    const message = deposit(posted)!;
    const declare = (as: string) =>
      d.api('action', {
        as,
        container: { type: 'message', channel: message.channel, ts: message.ts },
        action: { action_id: ACTION.declareCounterparty },
      });

    expect((await declare(WHO.compliance)).json).toEqual({ ok: true });
    const s = await d.until(
      WHO.compliance,
      (x) => callbackOf(topModal(x)) === CALLBACK.counterparty,
      'the declaration modal',
    );
    const modal = topModal(s)!;
    const suggested = await d.api('suggest', {
      as: WHO.compliance,
      viewId: modal.id,
      blockId: INPUT.cpWallet,
      actionId: INPUT.cpWallet,
      value: 'Bin',
    });
    expect(suggested.json.ok).toBe(true);
    expect(suggested.json.options.map((o: { text: { text: string } }) => o.text.text)).toContain('Binance');
    // Only for the modal on top of one's own stack.
    expect(
      (
        await d.api('suggest', {
          as: WHO.ana,
          viewId: modal.id,
          blockId: INPUT.cpWallet,
          actionId: INPUT.cpWallet,
          value: 'Bin',
        })
      ).status,
    ).toBe(409);
    await d.api('close', { as: WHO.compliance, viewId: modal.id });

    await declare(WHO.outsider);
    const refusal = (x: Snapshot) =>
      x.messages.find((m) => m.ephemeral && said(m).includes(refusalText('not_compliance')));
    await d.until(WHO.outsider, (x) => refusal(x) !== undefined, "the outsider's refusal");
    expect(d.snapshot(WHO.outsider).modals).toEqual([]);
    expect(refusal(d.snapshot(WHO.compliance))).toBeUndefined();
  });

  it("App Home: opening it publishes that person's home, shown to them only", async () => {
    expect((await d.api('home', { as: WHO.ana })).json).toEqual({ ok: true });
    const s = await d.until(WHO.ana, (x) => x.home !== undefined, "Ana's App Home");
    expect(s.home?.type).toBe('home');
    expect(d.snapshot(WHO.outsider).home).toBeUndefined();
  });

  it('refuses what a person cannot do in Slack: act as no one, on a modal not open, on a control not there', async () => {
    expect(await d.api('command', { as: 'UNOBODY0001', channel: WHO.deskChannel, text: '/balances' })).toMatchObject({
      status: 400,
      json: { ok: false },
    });
    expect(await d.api('submit', { as: WHO.ana, viewId: 'V99999999', values: {} })).toMatchObject({
      status: 409,
      json: { ok: false },
    });
    const request = inChannel(d.snapshot(WHO.ana), WHO.approvalChannel).find((m) => m.threadTs === undefined)!;
    const forged = await d.api('action', {
      as: WHO.ana,
      container: { type: 'message', channel: request.channel, ts: request.ts },
      action: { action_id: 'launch_rockets' },
    });
    expect(forged).toMatchObject({
      status: 400,
      json: { ok: false, error: expect.stringContaining('launch_rockets') },
    });
    expect(await d.api('command', { as: WHO.trader, channel: WHO.deskChannel })).toMatchObject({
      status: 400,
      json: { ok: false },
    });
  });
});
