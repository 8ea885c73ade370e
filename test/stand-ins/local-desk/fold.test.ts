/**
 * The workspace fold alone, over calls shaped as the fake Slack API records them (method, args,
 * what it answered): who sees which message, modal stacks per person, App Home, the bot's HTTP
 * answers to commands and submissions, and what cannot be placed (kept in `undrawn`).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeSlackApi, type FakeSlackCall } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import type { Person } from '../../../src/stand-ins/local-desk/protocol.js';
import { foldCall } from '../../../src/stand-ins/local-desk/server/fold-calls.js';
import {
  foldCommandAnswer,
  foldSubmissionAnswer,
  foldTyped,
} from '../../../src/stand-ins/local-desk/server/fold-answers.js';
import { Workspace, type Cast } from '../../../src/stand-ins/local-desk/server/workspace.js';

const person = (id: string, name: string, role: Person['role']): Person => ({
  id,
  name,
  initials: name.slice(0, 2).toUpperCase(),
  role,
  tz: 'UTC',
});
const TARA = 'UTARA00001';
const ANA = 'UANA000001';
const BEN = 'UBEN000001';
const APPROVALS = 'CAPPROVALS';
const DESK = 'CDESK00001';
const CAST: Cast = {
  people: [person(TARA, 'Tara', 'trader'), person(ANA, 'Ana', 'approver'), person(BEN, 'Ben', 'approver')],
  channels: [
    { id: DESK, name: 'desk', kind: 'channel', purpose: 'commands' },
    { id: APPROVALS, name: 'desk-approvals', kind: 'channel', purpose: 'requests' },
  ],
  commandChannel: DESK,
  botName: 'Desk Bot',
};

let slack: FakeSlackApi;
let ws: Workspace;
let seq: number;
beforeEach(() => {
  // Not started: its view store and ts sequence are all the fold needs.
  slack = new FakeSlackApi();
  ws = new Workspace(CAST, { nextTs: () => slack.nextTs(), now: () => 1_800_000_000_000 });
  seq = 0;
});

/** A call as the fake records it. */
function call(
  method: string,
  args: Record<string, unknown>,
  response: Record<string, unknown> = { ok: true },
  extra: Partial<FakeSlackCall> = {},
): FakeSlackCall {
  return {
    seq: ++seq,
    method,
    args,
    authorized: true,
    tokenMatched: true,
    at: 1_800_000_000_000 + seq,
    response,
    ...extra,
  };
}
const fold = (...calls: FakeSlackCall[]) => calls.forEach((c) => foldCall(ws, c));
const post = (channel: string, ts: string, args: Record<string, unknown> = {}, answeredChannel = channel) =>
  call('chat.postMessage', { channel, text: `message ${ts}`, ...args }, { ok: true, channel: answeredChannel, ts });
const view = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  hash: `h-${id}-${title}`,
  type: 'modal',
  title: { type: 'plain_text', text: title },
  blocks: [],
  ...extra,
});
const texts = (who: string) => ws.snapshot(who).messages.map((m) => m.text);

describe('messages', () => {
  it("a channel post is everyone's; a DM only its person's; a thread reply keeps its parent", () => {
    fold(
      post(APPROVALS, '1.1', { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*R1*' } }] }),
      post(TARA, '1.2', {}, 'DTARA00001'),
      post(APPROVALS, '1.3', { thread_ts: '1.1' }),
    );
    expect(texts(ANA)).toEqual(['message 1.1', 'message 1.3']);
    expect(texts(TARA)).toEqual(['message 1.1', 'message 1.2', 'message 1.3']);
    const [parent, dm, reply] = ws.snapshot(TARA).messages;
    expect(parent).toEqual({
      channel: APPROVALS,
      ts: '1.1',
      text: 'message 1.1',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*R1*' } }],
      author: { kind: 'bot' },
      at: 1_800_000_000_001,
    });
    expect(dm).toMatchObject({ channel: 'DTARA00001' });
    expect(ws.snapshot(TARA).channels.at(-1)).toEqual({
      id: 'DTARA00001',
      name: 'Desk Bot',
      kind: 'dm',
      purpose: 'Direct messages from Desk Bot',
    });
    expect(ws.snapshot(ANA).channels.map((c) => c.id)).not.toContain('DTARA00001');
    expect(reply).toMatchObject({ threadTs: '1.1' });
  });

  it('chat.update replaces text and blocks (keeping blocks it leaves out) and marks the message edited; chat.delete removes it', () => {
    const blocks = [{ type: 'divider' }];
    fold(
      post(APPROVALS, '1.1', { blocks }),
      call('chat.update', { channel: APPROVALS, ts: '1.1', text: 'approved once' }),
    );
    expect(ws.snapshot(BEN).messages[0]).toMatchObject({ text: 'approved once', blocks, edited: true });
    fold(call('chat.update', { channel: APPROVALS, ts: '1.1', blocks: [] }));
    expect(ws.snapshot(BEN).messages[0]!.blocks).toEqual([]);
    fold(call('chat.delete', { channel: APPROVALS, ts: '1.1' }));
    expect(ws.snapshot(BEN).messages).toEqual([]);
  });

  it('chat.postEphemeral is only for its user, marked ephemeral', () => {
    fold(
      call(
        'chat.postEphemeral',
        { channel: APPROVALS, user: ANA, text: 'You already approved this.' },
        { ok: true, message_ts: '2.1' },
      ),
    );
    expect(ws.snapshot(ANA).messages).toEqual([
      {
        channel: APPROVALS,
        ts: '2.1',
        text: 'You already approved this.',
        ephemeral: true,
        author: { kind: 'bot' },
        at: expect.any(Number),
      },
    ]);
    expect(ws.snapshot(TARA).messages).toEqual([]);
  });

  it('response URLs: ephemeral by default, in_channel for everyone, replace_original and delete_original act on the clicked message', () => {
    fold(post(APPROVALS, '1.1', { thread_ts: '1.0' }));
    const clicked = ws.findMessage(APPROVALS, '1.1')!;
    const id = ws.mintResponse({ person: ANA, channel: APPROVALS, source: clicked });
    const respond = (args: Record<string, unknown>) =>
      fold(call('response_url', args, { ok: true }, { responseUrlId: id }));

    respond({ response_type: 'ephemeral', replace_original: false, text: 'only Ana' });
    expect(texts(ANA)).toEqual(['message 1.1', 'only Ana']);
    expect(texts(BEN)).toEqual(['message 1.1']);
    // Answering a click in a thread answers in the thread.
    expect(ws.snapshot(ANA).messages[1]).toMatchObject({ ephemeral: true, threadTs: '1.0', channel: APPROVALS });

    respond({ response_type: 'in_channel', text: 'for all' });
    expect(texts(BEN)).toEqual(['message 1.1', 'for all']);

    respond({ replace_original: true, text: 'replaced' });
    expect(texts(BEN)).toEqual(['replaced', 'for all']);
    respond({ delete_original: true });
    expect(texts(BEN)).toEqual(['for all']);
  });

  it("a command's HTTP answer is ephemeral to its person unless in_channel; a typed command shows to its person, plain text to all", () => {
    foldTyped(ws, TARA, DESK, '/balances BTC');
    foldTyped(ws, TARA, DESK, 'morning all');
    const origin = { person: TARA, channel: DESK };
    foldCommandAnswer(ws, origin, { response_type: 'ephemeral', text: 'Usage: `/balances`' });
    foldCommandAnswer(ws, origin, undefined);
    foldCommandAnswer(ws, origin, { response_type: 'in_channel', text: 'everyone sees this' });
    expect(texts(TARA)).toEqual(['/balances BTC', 'morning all', 'Usage: `/balances`', 'everyone sees this']);
    expect(texts(ANA)).toEqual(['morning all', 'everyone sees this']);
    expect(ws.snapshot(TARA).messages[0]).toMatchObject({ author: { kind: 'person', id: TARA } });
    expect(ws.snapshot(TARA).messages[0]!.ephemeral).toBeUndefined();
    expect(ws.snapshot(TARA).messages[2]!.ephemeral).toBe(true);
    // Their ts come from the same sequence as the bot's posts: increasing.
    const ts = ws.snapshot(TARA).messages.map((m) => m.ts);
    expect([...ts].sort()).toEqual(ts);
  });
});

describe('modals and App Home', () => {
  it("views.open lands on the stack of the trigger's person only; push stacks; update replaces in place and clears errors", () => {
    const trigger = ws.mintTrigger(TARA);
    fold(call('views.open', { trigger_id: trigger, view: {} }, { ok: true, view: view('V1', 'Loading') }));
    expect(ws.snapshot(TARA).modals.map((m) => m.id)).toEqual(['V1']);
    expect(ws.snapshot(ANA).modals).toEqual([]);
    fold(call('views.push', { trigger_id: ws.mintTrigger(TARA), view: {} }, { ok: true, view: view('V2', 'Confirm') }));
    expect(ws.snapshot(TARA).modals.map((m) => m.id)).toEqual(['V1', 'V2']);
    ws.setErrors(TARA, 'V1', { amount: 'Not a number' });
    fold(call('views.update', { view_id: 'V1', view: {} }, { ok: true, view: view('V1', 'Crypto withdrawal') }));
    const [under, pushed] = ws.snapshot(TARA).modals;
    expect(under).toEqual({ id: 'V1', hash: 'h-V1-Crypto withdrawal', view: view('V1', 'Crypto withdrawal') });
    expect(pushed!.id).toBe('V2');
  });

  it("views.publish is the person's App Home, and views.update of that view updates it", () => {
    fold(
      call('views.publish', { user_id: ANA, view: {} }, { ok: true, view: { id: 'VH1', type: 'home', blocks: [] } }),
    );
    expect(ws.snapshot(ANA).home).toEqual({ id: 'VH1', type: 'home', blocks: [] });
    expect(ws.snapshot(TARA).home).toBeUndefined();
    fold(
      call(
        'views.update',
        { view_id: 'VH1', view: {} },
        { ok: true, view: { id: 'VH1', type: 'home', blocks: [{ type: 'divider' }] } },
      ),
    );
    expect(ws.snapshot(ANA).home).toEqual({ id: 'VH1', type: 'home', blocks: [{ type: 'divider' }] });
  });

  it('a submission answered with errors keeps the view open with its errors; update replaces it with a new hash; push stacks; clear closes all; nothing closes the top', () => {
    const open = (id: string, title: string) => slack.recordView(view(id, title), id);
    ws.openModal(TARA, open('V1', 'Form'));
    const mark = seq;

    expect(
      foldSubmissionAnswer(
        ws,
        slack,
        TARA,
        'V1',
        { response_action: 'errors', errors: { amount: 'Not a number' } },
        mark,
      ),
    ).toEqual({ errors: { amount: 'Not a number' } });
    expect(ws.snapshot(TARA).modals[0]!.errors).toEqual({ amount: 'Not a number' });

    const hashBefore = ws.snapshot(TARA).modals[0]!.hash;
    foldSubmissionAnswer(
      ws,
      slack,
      TARA,
      'V1',
      {
        response_action: 'update',
        view: { type: 'modal', title: { type: 'plain_text', text: 'Sending…' }, blocks: [] },
      },
      mark,
    );
    const updated = ws.snapshot(TARA).modals[0]!;
    expect(updated).toMatchObject({ id: 'V1', view: { title: { text: 'Sending…' } } });
    expect(updated.errors).toBeUndefined();
    // Slack holds the answered view under the same id, with the hash the desk shows.
    expect(updated.hash).not.toBe(hashBefore);
    expect(slack.viewById('V1')).toMatchObject({ hash: updated.hash, title: { text: 'Sending…' } });

    foldSubmissionAnswer(
      ws,
      slack,
      TARA,
      'V1',
      { response_action: 'push', view: { type: 'modal', title: { type: 'plain_text', text: 'Sure?' }, blocks: [] } },
      mark,
    );
    expect(ws.snapshot(TARA).modals.map((m) => (m.view.title as { text: string }).text)).toEqual(['Sending…', 'Sure?']);
    const pushedId = ws.snapshot(TARA).modals[1]!.id;
    foldSubmissionAnswer(ws, slack, TARA, pushedId, '', mark);
    expect(ws.snapshot(TARA).modals.map((m) => m.id)).toEqual(['V1']);
    foldSubmissionAnswer(ws, slack, TARA, 'V1', { response_action: 'clear' }, mark);
    expect(ws.snapshot(TARA).modals).toEqual([]);
  });

  it("a submission's update answer is not applied over a views.update the bot made after it", () => {
    ws.openModal(TARA, slack.recordView(view('V1', 'Form'), 'V1'));
    const sentAfter = seq;
    // The bot acked with "Sending…" and went on; its views.update with the result was recorded first.
    fold(call('views.update', { view_id: 'V1', view: {} }, { ok: true, view: view('V1', 'Waiting for approval') }));
    foldSubmissionAnswer(
      ws,
      slack,
      TARA,
      'V1',
      {
        response_action: 'update',
        view: { type: 'modal', title: { type: 'plain_text', text: 'Sending…' }, blocks: [] },
      },
      sentAfter,
    );
    expect((ws.snapshot(TARA).modals[0]!.view.title as { text: string }).text).toBe('Waiting for approval');
  });
});

describe('what cannot be placed is kept, never dropped', () => {
  it('a modal for a trigger the desk did not hand out, an update of an unknown message or view, an unknown method, an unknown channel, a refused call', () => {
    fold(
      call('views.open', { trigger_id: 'made.up', view: {} }, { ok: true, view: view('V9', 'Stray') }),
      call('chat.update', { channel: APPROVALS, ts: '9.9', text: 'ghost' }),
      call('views.update', { view_id: 'V404', view: {} }, { ok: true, view: view('V404', 'Nobody') }),
      call('reactions.add', { channel: APPROVALS, name: 'eyes' }),
      post('CELSEWHERE', '3.1'),
      call('response_url', { text: 'lost' }, { ok: true }, { responseUrlId: 'not-ours' }),
    );
    const undrawn = ws.snapshot(ANA).undrawn;
    expect(undrawn.map((u) => u.method)).toEqual([
      'views.open',
      'chat.update',
      'views.update',
      'reactions.add',
      'chat.postMessage',
      'response_url',
    ]);
    expect(undrawn[0]!.summary).toContain('"Stray"');
    expect(undrawn[3]!.summary).toContain('reactions.add');
    expect(ws.snapshot(ANA).messages).toEqual([]);

    // A refused call is shown to the person it was for only.
    fold(call('views.open', { trigger_id: ws.mintTrigger(BEN), view: {} }, { ok: false, error: 'invalid_blocks' }));
    expect(ws.snapshot(BEN).undrawn.at(-1)).toEqual({
      method: 'views.open',
      summary: 'Slack refused it: invalid_blocks',
    });
    expect(ws.snapshot(ANA).undrawn).toHaveLength(6);
  });

  it("a call without the bot's token is not the bot's, and is not shown", () => {
    const before = ws.version;
    fold(
      call(
        'chat.postMessage',
        { channel: APPROVALS, text: 'forged' },
        { ok: false, error: 'not_authed' },
        { authorized: false, tokenMatched: false },
      ),
      call(
        'chat.postMessage',
        { channel: APPROVALS, text: 'forged' },
        { ok: false, error: 'invalid_auth' },
        { authorized: true, tokenMatched: false },
      ),
    );
    expect(ws.version).toBe(before);
    // A post to a response URL the desk never handed out is noted without its words.
    fold(
      call(
        'response_url',
        { text: 'Your session expired: log in at evil.example' },
        { ok: true },
        { authorized: false, responseUrlId: 'UANA000001.1' },
      ),
    );
    expect(JSON.stringify(ws.snapshot(ANA))).not.toContain('evil.example');
    expect(ws.snapshot(ANA).undrawn).toHaveLength(1);
  });

  it('calls that show nothing in Slack change nothing', () => {
    const before = ws.version;
    fold(
      call('auth.test', {}),
      call('users.info', { user: ANA }),
      call('conversations.open', { users: ANA }),
      call('chat.getPermalink', { channel: APPROVALS, message_ts: '1.1' }),
    );
    expect(ws.version).toBe(before);
  });

  it('every change raises the version and is heard', () => {
    let heard = 0;
    ws.onChange(() => heard++);
    const before = ws.version;
    fold(post(APPROVALS, '1.1'), call('chat.update', { channel: APPROVALS, ts: '1.1', text: 'x' }));
    expect(heard).toBe(2);
    expect(ws.snapshot(TARA).version).toBe(before + 2);
  });
});
