/**
 * The registry: every command in the manifest has a listener and the other way round, each one
 * acknowledges a signed request; plus the event and options listeners.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_LISTENERS } from '../../../../src/bot/slack/shell/registrations.js';
import { ACTION, BLOCK, CALLBACK, COMMAND, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { REFUSAL_MESSAGES } from '../../../../src/bot/domain/refusals.js';
import { stateOf } from '../support/signed-requests.js';
import { appHomeOpened, deferred, fakeExchangeAndHarness } from '../support/listeners-support.js';
import { PEOPLE, type Harness } from '../support/harness.js';

const manifest = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../manifests/manifest.json', import.meta.url)), 'utf8'),
) as {
  features: { slash_commands: { command: string }[] };
};
const manifestCommands = manifest.features.slash_commands.map((c) => c.command).sort();

let h: Harness;
let wallets: ReturnType<typeof fakeExchangeAndHarness>['wallets'];
beforeAll(async () => {
  const built = fakeExchangeAndHarness();
  wallets = built.wallets;
  h = await built.start();
});
afterAll(async () => {
  await h?.stop();
});

describe('command registry', () => {
  it("has exactly the manifest's commands", () => {
    expect(Object.keys(COMMAND_LISTENERS).sort()).toEqual(manifestCommands);
    expect(Object.values(COMMAND).sort()).toEqual(manifestCommands);
  });

  it.each(manifestCommands)('%s is acknowledged through the receiver', async (command) => {
    const res = await h.slack.command({
      command,
      text: command === '/desk' ? 'help' : '',
      userId: PEOPLE.outsider,
      responseUrl: h.fake.responseUrl(`reg${command}`),
    });
    // An unregistered command would wait for Bolt's unhandled-request timeout and get 404.
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(1_000);
  });
});

describe('App Home', () => {
  it('publishes the Home tab when a user opens it', async () => {
    const mark = h.fake.calls.length;
    const res = await h.slack.event(appHomeOpened(PEOPLE.approver1));
    expect(res.status).toBe(200);
    const call = await h.fake.waitFor((c) => c.method === 'views.publish', { after: mark });
    expect(call.args.user_id).toBe(PEOPLE.approver1);
    const text = JSON.stringify(call.args.view);
    expect(text).toContain('Waiting for your approval (0)');
    expect(text).toContain(BLOCK.sandboxBanner);
  });

  it('ignores the Messages tab', async () => {
    const mark = h.fake.calls.length;
    await h.slack.event(appHomeOpened(PEOPLE.approver1, 'messages'));
    await new Promise((r) => setTimeout(r, 50));
    expect(h.fake.calls.slice(mark).filter((c) => c.method === 'views.publish')).toEqual([]);
  });
});

describe('wallet search options', () => {
  it('lists known wallets with type and risk for a compliance officer', async () => {
    const res = await h.slack.blockSuggestion({ userId: PEOPLE.compliance, actionId: INPUT.cpWallet, value: 'bina' });
    expect(res.status).toBe(200);
    const options = (
      res.json as { options: { text: { text: string }; value: string; description?: { text: string } }[] }
    ).options;
    expect(options.map((o) => o.text.text)).toEqual(['Binance', 'Bina <Private>']);
    expect(options[0]!.description!.text).toBe('hosted (exchange or custodian) · low risk');
    expect(wallets.lastQuery).toBe('bina');
  });

  it('past 100 matches, answers the first 100 in a group whose label says typing narrows them', async () => {
    wallets.hold = deferred();
    wallets.hold.resolve(
      Array.from({ length: 130 }, (_, i) => ({
        id: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`,
        type: 'hosted' as const,
        name: `Bina ${i}`,
      })),
    );
    const res = await h.slack.blockSuggestion({ userId: PEOPLE.compliance, actionId: INPUT.cpWallet, value: 'bina' });
    wallets.hold = undefined;
    const groups = (res.json as { option_groups: { label: { text: string }; options: unknown[] }[] }).option_groups;
    expect(groups.map((g) => [g.label.text, g.options.length])).toEqual([
      ['First 100 of 130 matches: type more to narrow', 100],
    ]);
  });

  it('gives nobody else any options and does not ask the exchange', async () => {
    wallets.lastQuery = undefined;
    const res = await h.slack.blockSuggestion({ userId: PEOPLE.requester, actionId: INPUT.cpWallet, value: 'bina' });
    expect(res.json).toEqual({ options: [] });
    expect(wallets.lastQuery).toBeUndefined();
  });

  it("answers an empty list when the exchange is too slow, within Slack's 3 seconds", async () => {
    wallets.hold = deferred();
    const res = await h.slack.blockSuggestion({ userId: PEOPLE.compliance, actionId: INPUT.cpWallet, value: 'slow' });
    expect(res.json).toEqual({ options: [] });
    wallets.hold.resolve([]);
    wallets.hold = undefined;
  });
});

describe('Reject', () => {
  it('opens the reason modal for an approver, with the request and message in its metadata', async () => {
    const mark = h.fake.calls.length;
    const res = await h.slack.blockAction({
      userId: PEOPLE.approver1,
      actionId: ACTION.reject,
      value: 'R7K2QX:abc123',
      container: { type: 'message', channelId: 'C0APPROVE1', messageTs: '1700000000.000101' },
      responseUrl: h.fake.responseUrl('rej1'),
    });
    expect(res.status).toBe(200);
    const view = (await h.fake.waitFor((c) => c.method === 'views.open', { after: mark })).args.view as {
      callback_id: string;
      private_metadata: string;
    };
    expect(view.callback_id).toBe(CALLBACK.rejectReason);
    expect(JSON.parse(view.private_metadata)).toEqual({ r: 'R7K2QX', c: 'C0APPROVE1', m: '1700000000.000101' });
    const empty = await h.slack.viewSubmission({
      userId: PEOPLE.approver1,
      callbackId: CALLBACK.rejectReason,
      privateMetadata: view.private_metadata,
      values: { [INPUT.rejectReason]: { [INPUT.rejectReason]: stateOf.text('  ') } },
    });
    expect(empty.json).toEqual({
      response_action: 'errors',
      errors: { [INPUT.rejectReason]: expect.stringContaining('why') },
    });
  });

  it("tells a non-approver why, in the engine's words, without a modal", async () => {
    const mark = h.fake.calls.length;
    await h.slack.blockAction({
      userId: PEOPLE.requester,
      actionId: ACTION.reject,
      value: 'R7K2QX',
      container: { type: 'message', channelId: 'C0APPROVE1', messageTs: '1700000000.000101' },
      responseUrl: h.fake.responseUrl('rej2'),
    });
    const reply = await h.fake.waitFor((c) => c.responseUrlId === 'rej2', { after: mark });
    expect(reply.args.text).toBe(`:no_entry_sign: ${REFUSAL_MESSAGES.not_approver}`);
    expect(h.fake.calls.slice(mark).some((c) => c.method === 'views.open')).toBe(false);
  });
});

describe('buttons on a request the desk does not have', () => {
  it.each([
    [ACTION.approve, 'R7K2QX', 'This request changed since you saw it'],
    [ACTION.cancel, 'R7K2QX', 'No such request.'],
    [ACTION.approve, `R7K2QX:${'a'.repeat(64)}`, 'No such request.'],
  ])('%s %s is acknowledged and the clicker told what is wrong, privately', async (actionId, value, says) => {
    const mark = h.fake.calls.length;
    const res = await h.slack.blockAction({
      userId: PEOPLE.approver1,
      actionId,
      value,
      container: { type: 'message', channelId: 'C0APPROVE1', messageTs: '1700000000.000101' },
      responseUrl: h.fake.responseUrl(`nw${actionId}${value.length}`),
    });
    expect(res.status).toBe(200);
    const reply = await h.fake.waitFor((c) => c.responseUrlId === `nw${actionId}${value.length}`, { after: mark });
    expect(reply.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: expect.stringContaining(says),
    });
  });
});
