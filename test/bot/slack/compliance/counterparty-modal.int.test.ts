/** /counterparty and the Declare counterparty button through Bolt's receiver (issue 6's modal). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryInput } from '../../../../src/bot/ports/store.js';
import { ACTION, BLOCK, CALLBACK, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';
import { fakeExchange, PEOPLE, startHarness, type Harness } from '../support/harness.js';
import { stateOf, type StateValues } from '../support/signed-requests.js';

const TX = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const audit: AuditEntryInput[] = [];
/** The exchange takes a declaration (201); what it received is kept in its calls. */
const exchange = fakeExchange({ submitCounterpartyInfo: async () => ({ id: 'cp-1', status: 'submitted' }) });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ exchange: exchange, audit: { append: async (e) => void audit.push(e) } });
});
afterAll(async () => {
  await h?.stop();
});

type View = {
  id: string;
  callback_id: string;
  private_metadata: string;
  blocks: { type: string; block_id?: string; element?: { type: string; min_query_length?: number } }[];
};

describe('/counterparty', () => {
  it('refuses anyone but compliance officers and audits the attempt', async () => {
    const res = await h.slack.command({
      command: '/counterparty',
      text: TX,
      userId: PEOPLE.requester,
      responseUrl: h.fake.responseUrl('cp0'),
    });
    expect(res.json).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Only compliance officers'),
    });
    await expect
      .poll(() => audit.at(-1))
      .toEqual({
        type: 'counterparty.refused',
        actor: PEOPLE.requester,
        data: { reason: 'not_compliance', where: '/counterparty', transactionId: TX },
      });
  });

  it('opens the declaration modal for the transaction given', async () => {
    const mark = h.fake.calls.length;
    const res = await h.slack.command({
      command: '/counterparty',
      text: TX,
      userId: PEOPLE.compliance,
      responseUrl: h.fake.responseUrl('cp1'),
    });
    expect(res.status).toBe(200);
    const view = (await h.fake.waitFor((c) => c.method === 'views.open', { after: mark })).args.view as View;
    expect(view.callback_id).toBe(CALLBACK.counterparty);
    expect(JSON.parse(view.private_metadata)).toEqual({ k: 'cp', t: TX });
    expect(view.blocks.some((b) => b.block_id === INPUT.cpTransaction)).toBe(false);
    const wallet = view.blocks.find((b) => b.block_id === INPUT.cpWallet);
    expect(wallet?.element).toMatchObject({ type: 'external_select', min_query_length: 2 });
    expect(view.blocks.some((b) => b.block_id === BLOCK.cpWalletWarning)).toBe(true);
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('asks for the transaction id in the modal when none is given, and explains a malformed one', async () => {
    const mark = h.fake.calls.length;
    await h.slack.command({
      command: '/counterparty',
      text: '',
      userId: PEOPLE.compliance,
      responseUrl: h.fake.responseUrl('cp2'),
    });
    const view = (await h.fake.waitFor((c) => c.method === 'views.open', { after: mark })).args.view as View;
    expect(view.blocks.some((b) => b.block_id === INPUT.cpTransaction)).toBe(true);
    const bad = await h.slack.command({
      command: '/counterparty',
      text: 'tx-42',
      userId: PEOPLE.compliance,
      responseUrl: h.fake.responseUrl('cp3'),
    });
    expect(bad.json).toMatchObject({ text: expect.stringContaining('Usage') });
  });

  it('opens from the deposit message button, remembering where the message is', async () => {
    const mark = h.fake.calls.length;
    await h.slack.blockAction({
      userId: PEOPLE.compliance,
      actionId: ACTION.declareCounterparty,
      value: TX,
      container: { type: 'message', channelId: 'C0COMPLY1', messageTs: '1700000000.000200' },
      responseUrl: h.fake.responseUrl('cp4'),
    });
    const view = (await h.fake.waitFor((c) => c.method === 'views.open', { after: mark })).args.view as View;
    expect(JSON.parse(view.private_metadata)).toEqual({ k: 'cp', t: TX, c: 'C0COMPLY1', m: '1700000000.000200' });
  });

  it('checks the declaration on submit, field by field', async () => {
    const values = (o: Record<string, string>): StateValues => ({
      [INPUT.cpEntityType]: { [INPUT.cpEntityType]: stateOf.radio(o.type ?? 'entity') },
      [INPUT.cpLegalName]: { [INPUT.cpLegalName]: stateOf.text(o.name ?? 'Acme Pte Ltd') },
      [INPUT.cpOwnership]: { [INPUT.cpOwnership]: stateOf.radio('third_party') },
      [INPUT.cpRegion]: { [INPUT.cpRegion]: stateOf.text(o.region ?? null) },
      [INPUT.cpCountryCode]: { [INPUT.cpCountryCode]: stateOf.text(o.country ?? null) },
      [INPUT.cpWallet]: { [INPUT.cpWallet]: stateOf.external(o.wallet ?? null) },
      [INPUT.cpWalletName]: { [INPUT.cpWalletName]: stateOf.text(o.walletName ?? null) },
    });
    const submit = (userId: string, v: StateValues) =>
      h.slack.viewSubmission({
        userId,
        callbackId: CALLBACK.counterparty,
        privateMetadata: JSON.stringify({ k: 'cp', t: TX }),
        values: v,
      });
    let res = await submit(
      PEOPLE.compliance,
      values({ region: 'Central', wallet: '0f8fad5b-d9cb-469f-a165-70867728950e', walletName: 'Other' }),
    );
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: {
        [INPUT.cpCountryCode]: 'The country code is required once any address field is filled.',
        [INPUT.cpWalletName]: 'Choose a listed wallet or type a name, not both.',
      },
    });
    res = await submit(PEOPLE.compliance, values({ region: 'Central', country: 'sg' }));
    expect(res.json).toMatchObject({ response_action: 'update' });
    // Sent once, as the reference's object, and its answer audited.
    await expect
      .poll(() => audit.some((e) => e.type === 'counterparty.answer' && e.data?.outcome === 'done'))
      .toBe(true);
    expect(exchange.calls.filter((c) => c.method === 'submitCounterpartyInfo').map((c) => c.args)).toEqual([
      [
        TX,
        {
          wallet_identity_attributes: {
            entity_type: 'entity',
            entity_name: 'Acme Pte Ltd',
            ownership: 'third_party',
            address_attributes: { country_code: 'SG', region: 'Central' },
          },
        },
      ],
    ]);
    const before = audit.length;
    res = await submit(PEOPLE.approver1, values({}));
    expect(JSON.stringify(res.json)).toContain('Only compliance officers');
    await expect.poll(() => audit.length).toBe(before + 1);
  });
});
