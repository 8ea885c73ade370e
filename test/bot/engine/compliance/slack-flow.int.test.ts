/**
 * End to end through Bolt's real HTTP receiver (signed requests), the fake Slack Web API and the
 * sandbox exchange: a deposit appears once in the compliance channel (also across a restart),
 * /counterparty and the button open the modal, the wallet search answers, a submission with
 * errors is answered on the field, declarations with a listed and an unlisted wallet reach the
 * exchange with the exact body, 404 and 422 are told plainly, a non-officer is refused and audited.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DECLARE_MESSAGES } from '../../../../src/bot/engine/compliance/declare.js';
import type { FakeSlackCall } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { DEPOSIT_BLOCK } from '../../../../src/bot/slack/compliance/deposit-message.js';
import { ACTION, CALLBACK, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { limitViolations } from '../../slack/support/block-limits.js';
import { stateOf, type StateValues } from '../../slack/support/signed-requests.js';
import { COMPLIANCE_CHANNEL, PEOPLE, startComplianceBot, type ComplianceBot } from './support/slack.js';
import { startWorld, type World } from './support/world.js';

let world: World;
let bot: ComplianceBot;

beforeEach(async () => {
  world = await startWorld('slack-flow');
  bot = await startComplianceBot(world);
});
afterEach(async () => {
  await bot.stop();
  await world.close();
});

type Block = {
  type: string;
  block_id?: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: Record<string, any>[];
};
const blocksOf = (call: FakeSlackCall) => call.args.blocks as Block[];
const textOf = (blocks: Block[]) => JSON.stringify(blocks);
const depositPosts = () =>
  bot.fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === COMPLIANCE_CHANNEL && c.args.thread_ts === undefined);

function receive(amount = '1.5') {
  world.sandbox.control.advance(1_000);
  return world.sandbox.control.injectDeposit({ amount, needsCounterpartyInfo: true });
}

/** Open the modal with /counterparty [tx] as `user`; the view as the fake stored it. */
async function openByCommand(text: string, user: string = PEOPLE.compliance) {
  const mark = bot.fake.calls.length;
  const res = await bot.slack.command({
    command: '/counterparty',
    text,
    userId: user,
    responseUrl: bot.fake.responseUrl('cmd'),
  });
  expect(res.status).toBe(200);
  const opened = await bot.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  return {
    res,
    opened,
    view: opened.response.view as { id: string; private_metadata: string; blocks: Block[]; callback_id: string },
  };
}

function filled(extra: StateValues = {}): StateValues {
  return {
    [INPUT.cpEntityType]: { [INPUT.cpEntityType]: stateOf.radio('individual') },
    [INPUT.cpLegalName]: { [INPUT.cpLegalName]: stateOf.text('Tan <!channel> Mei Ling') },
    [INPUT.cpOwnership]: { [INPUT.cpOwnership]: stateOf.radio('third_party') },
    ...extra,
  };
}

async function submit(
  view: { id: string; private_metadata: string },
  values: StateValues,
  user: string = PEOPLE.compliance,
) {
  const mark = bot.fake.calls.length;
  const res = await bot.slack.viewSubmission({
    userId: user,
    callbackId: CALLBACK.counterparty,
    viewId: view.id,
    privateMetadata: view.private_metadata,
    values,
  });
  return { res, mark };
}

describe('the deposit message', () => {
  it('is posted once to the compliance channel with the facts and the button, and not again after a restart', async () => {
    const d = receive('0.125');
    await bot.watch().poll();
    await bot.watch().poll();
    expect(depositPosts()).toHaveLength(1);
    const blocks = blocksOf(depositPosts()[0]!);
    expect(limitViolations(blocks)).toEqual([]);
    const facts = textOf(blocks.filter((b) => b.block_id === DEPOSIT_BLOCK.facts));
    expect(facts).toContain('0.125 BTC');
    expect(facts).toContain(d.to_address);
    expect(facts).toContain(`<${d.link_explorer}|${d.transaction_hash.slice(0, 10)}`);
    expect(facts).toContain('required');
    const button = blocks.find((b) => b.block_id === DEPOSIT_BLOCK.actions)!.elements![0]!;
    expect(button).toMatchObject({
      action_id: ACTION.declareCounterparty,
      value: d.transaction.uuid,
      text: { text: 'Declare counterparty' },
    });

    // A restart: the bot stops, the stores are reopened, a new bot (and a new Slack fake) starts.
    await bot.stop();
    await world.restart();
    bot = await startComplianceBot(world);
    await bot.watch().poll();
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(0);
    const next = receive('2');
    await bot.watch().poll();
    expect(depositPosts()).toHaveLength(1);
    expect(textOf(blocksOf(depositPosts()[0]!))).toContain(next.transaction.uuid);
  });
});

describe('opening the declaration modal', () => {
  it('/counterparty <tx> acknowledges at once and opens the modal for that transaction', async () => {
    const d = receive();
    const { res, view } = await openByCommand(d.transaction.uuid);
    expect(res.text).toBe('');
    expect(view.callback_id).toBe(CALLBACK.counterparty);
    expect(JSON.parse(view.private_metadata)).toMatchObject({ t: d.transaction.uuid });
    expect(view.blocks.some((b) => b.block_id === INPUT.cpTransaction)).toBe(false);
    expect(view.blocks.some((b) => b.block_id === INPUT.cpWallet)).toBe(true);
    expect(textOf(view.blocks)).toContain('unverified');
  });

  it('the Declare counterparty button opens the same modal; a non-officer gets an ephemeral refusal, audited', async () => {
    const d = receive();
    await bot.watch().poll();
    const post = depositPosts()[0]!;
    let mark = bot.fake.calls.length;
    await bot.slack.blockAction({
      userId: PEOPLE.compliance,
      actionId: ACTION.declareCounterparty,
      value: d.transaction.uuid,
      container: { type: 'message', channelId: COMPLIANCE_CHANNEL, messageTs: String(post.response.ts) },
      responseUrl: bot.fake.responseUrl('b1'),
    });
    const opened = await bot.fake.waitFor((c) => c.method === 'views.open', { after: mark });
    expect(JSON.parse((opened.args.view as { private_metadata: string }).private_metadata)).toMatchObject({
      t: d.transaction.uuid,
    });

    mark = bot.fake.calls.length;
    await bot.slack.blockAction({
      userId: PEOPLE.approver1,
      actionId: ACTION.declareCounterparty,
      value: d.transaction.uuid,
      container: { type: 'message', channelId: COMPLIANCE_CHANNEL, messageTs: String(post.response.ts) },
      responseUrl: bot.fake.responseUrl('b2'),
    });
    const refusal = await bot.fake.waitFor((c) => c.method === 'response_url' && c.responseUrlId === 'b2', {
      after: mark,
    });
    expect(refusal.args).toMatchObject({ response_type: 'ephemeral' });
    expect(String(refusal.args.text)).toMatch(/compliance officers/);
    await new Promise((r) => setTimeout(r, 30));
    expect(bot.fake.calls.slice(mark).some((c) => c.method === 'views.open')).toBe(false);
    expect(world.auditLines().some((l) => l.type === 'counterparty.refused' && l.actor === PEOPLE.approver1)).toBe(
      true,
    );
  });

  it('the wallet search lists known wallets with type and risk level', async () => {
    const res = await bot.slack.blockSuggestion({ userId: PEOPLE.compliance, actionId: INPUT.cpWallet, value: 'krak' });
    const options = (
      res.json as { options: { text: { text: string }; value: string; description?: { text: string } }[] }
    ).options;
    const kraken = (await world.api.listKnownWallets({ name: 'Kraken' })).find((w) => w.name === 'Kraken')!;
    expect(options[0]).toMatchObject({ text: { text: 'Kraken' }, value: kraken.id });
    expect(options[0]!.description!.text).toMatch(/hosted .*low risk/);
  });
});

describe('submitting the declaration', () => {
  it('answers a form that fails its checks on the fields at fault, and sends nothing', async () => {
    const d = receive();
    const { view } = await openByCommand(d.transaction.uuid);
    const { res } = await submit(
      view,
      filled({
        [INPUT.cpRegion]: { [INPUT.cpRegion]: stateOf.text('Central') },
        [INPUT.cpCountryCode]: { [INPUT.cpCountryCode]: stateOf.text('') },
      }),
    );
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [INPUT.cpCountryCode]: 'The country code is required once any address field is filled.' },
    });
    expect(world.counterpartyPosts()).toBe(0);
  });

  it('declares with a listed wallet: exact body, modal updated, deposit message updated and confirmed in its thread', async () => {
    const d = receive();
    const watch = bot.watch();
    await watch.poll();
    const post = depositPosts()[0]!;
    const kraken = (await world.api.listKnownWallets({ name: 'Kraken' })).find((w) => w.name === 'Kraken')!;
    const { view } = await openByCommand(d.transaction.uuid);

    const { res, mark } = await submit(
      view,
      filled({
        [INPUT.cpAddress1]: { [INPUT.cpAddress1]: stateOf.text('1 Raffles Place') },
        [INPUT.cpCountryCode]: { [INPUT.cpCountryCode]: stateOf.text('sg') },
        [INPUT.cpWallet]: { [INPUT.cpWallet]: stateOf.external(kraken.id) },
      }),
    );
    expect(res.json).toMatchObject({ response_action: 'update', view: { callback_id: CALLBACK.notice } });
    const updated = await bot.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
      after: mark,
    });
    expect(textOf((updated.args.view as { blocks: Block[] }).blocks)).toContain('Declared for transaction');

    expect(world.sandbox.control.counterpartySubmissions().map((s) => s.body)).toStrictEqual([
      {
        wallet_identity_attributes: {
          entity_type: 'individual',
          entity_name: 'Tan <!channel> Mei Ling',
          ownership: 'third_party',
          address_attributes: { country_code: 'SG', address1: '1 Raffles Place' },
        },
        crypto_wallet_attributes: { id: kraken.id },
      },
    ]);

    const edit = await bot.fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === post.response.ts, {
      after: mark,
    });
    const editedBlocks = blocksOf(edit);
    expect(editedBlocks.some((b) => b.block_id === DEPOSIT_BLOCK.actions)).toBe(false);
    const declared = textOf(editedBlocks.filter((b) => b.block_id === DEPOSIT_BLOCK.declaration));
    expect(declared).toContain(`<@${PEOPLE.compliance}>`);
    // The legal name is escaped: it cannot ping the channel.
    expect(declared).toContain('Tan &lt;!channel&gt; Mei Ling');
    expect(declared).not.toContain('<!channel>');
    const confirmation = await bot.fake.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === post.response.ts,
      { after: mark },
    );
    expect(String(confirmation.args.text)).toContain('declared the counterparty');

    // The watch then sees the Travel Rule status move, and the message follows it, once.
    const beforePoll = bot.fake.calls.length;
    await watch.poll();
    await watch.poll();
    const followed = bot.fake.calls.slice(beforePoll);
    expect(followed.filter((c) => c.method === 'chat.update')).toHaveLength(1);
    expect(
      followed
        .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === post.response.ts)
        .map((c) => String(c.args.text)),
    ).toEqual([expect.stringContaining('submitted')]);
    expect(depositPosts()).toHaveLength(1);
  });

  it('declares with an unlisted wallet typed in, for a transaction typed in the modal', async () => {
    const d = receive();
    const { view } = await openByCommand('');
    expect(view.blocks.some((b) => b.block_id === INPUT.cpTransaction)).toBe(true);
    const { mark } = await submit(
      view,
      filled({
        [INPUT.cpTransaction]: { [INPUT.cpTransaction]: stateOf.text(d.transaction.uuid) },
        [INPUT.cpEntityType]: { [INPUT.cpEntityType]: stateOf.radio('entity') },
        [INPUT.cpLegalName]: { [INPUT.cpLegalName]: stateOf.text('Acme Trading Pte Ltd') },
        [INPUT.cpOwnership]: { [INPUT.cpOwnership]: stateOf.radio('first_party') },
        [INPUT.cpWalletName]: { [INPUT.cpWalletName]: stateOf.text('Acme cold storage') },
      }),
    );
    const updated = await bot.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
      after: mark,
    });
    expect(textOf((updated.args.view as { blocks: Block[] }).blocks)).toContain('unverified');
    expect(world.sandbox.control.counterpartySubmissions().map((s) => s.body)).toStrictEqual([
      {
        wallet_identity_attributes: {
          entity_type: 'entity',
          entity_name: 'Acme Trading Pte Ltd',
          ownership: 'first_party',
        },
        crypto_wallet_attributes: { name: 'Acme cold storage' },
      },
    ]);
  });

  it('shows "Transaction not found" under the transaction field for a 404, the form kept as filled in', async () => {
    const missing = '3f2b1c4d-0000-4000-8000-0000000000aa';
    const { view } = await openByCommand('');
    const { mark } = await submit(
      view,
      filled({ [INPUT.cpTransaction]: { [INPUT.cpTransaction]: stateOf.text(missing) } }),
    );
    const updated = await bot.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
      after: mark,
    });
    const blocks = (updated.args.view as { blocks: Block[] }).blocks;
    const at = blocks.findIndex((b) => b.block_id === INPUT.cpTransaction);
    expect(JSON.stringify(blocks[at + 1])).toContain('Transaction not found');
    expect((blocks[at] as unknown as { element: { initial_value: string } }).element.initial_value).toBe(missing);
    const name = blocks.find((b) => b.block_id === INPUT.cpLegalName) as unknown as {
      element: { initial_value: string };
    };
    expect(name.element.initial_value).toBe('Tan <!channel> Mei Ling');
  });

  it('says plainly that a transaction is already declared (422), and sends nothing again', async () => {
    const d = receive();
    await world.api.submitCounterpartyInfo(d.transaction.uuid, {
      wallet_identity_attributes: { entity_type: 'entity', entity_name: 'Elsewhere', ownership: 'third_party' },
    });
    const posts = world.counterpartyPosts();
    for (let i = 0; i < 2; i++) {
      const { view } = await openByCommand(d.transaction.uuid);
      const { mark } = await submit(view, filled());
      const updated = await bot.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
        after: mark,
      });
      expect(textOf((updated.args.view as { blocks: Block[] }).blocks)).toContain(
        DECLARE_MESSAGES.alreadyExists.slice(0, 40),
      );
    }
    expect(world.counterpartyPosts()).toBe(posts + 1);
  });

  it('refuses a non-officer in the modal, sends nothing, and audits the attempt', async () => {
    const d = receive();
    const { view } = await openByCommand(d.transaction.uuid);
    const { res } = await submit(view, filled(), PEOPLE.requester);
    expect(res.json).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(res.json)).toMatch(/compliance officers/);
    await new Promise((r) => setTimeout(r, 50));
    expect(world.counterpartyPosts()).toBe(0);
    expect(
      world
        .auditLines()
        .filter((l) => l.type === 'counterparty.refused' && l.actor === PEOPLE.requester)
        .map((l) => l.data!.reason),
    ).toContain('not_compliance');
  });

  it('/counterparty by a non-officer is refused ephemerally and audited, with no modal', async () => {
    const mark = bot.fake.calls.length;
    const res = await bot.slack.command({
      command: '/counterparty',
      text: '',
      userId: PEOPLE.approver2,
      responseUrl: bot.fake.responseUrl('c2'),
    });
    expect(res.json).toMatchObject({ response_type: 'ephemeral' });
    await new Promise((r) => setTimeout(r, 30));
    expect(bot.fake.calls.slice(mark).some((c) => c.method === 'views.open')).toBe(false);
    expect(world.auditLines().some((l) => l.type === 'counterparty.refused' && l.actor === PEOPLE.approver2)).toBe(
      true,
    );
  });
});
