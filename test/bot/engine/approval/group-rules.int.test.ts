// A policy of groups and rules through the engine (the sandbox answering): a large withdrawal waits
// for risk after two treasury approvals, refused clicks say why in the policy's words, and a person
// removed from a group stops counting at once.
import { afterEach, describe, expect, it } from 'vitest';
import { REQUESTER, type World } from '../support/world.js';
import { sandboxWorld, usableDestination, type SandboxForEngine } from '../support/sandbox-requests.js';
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import type { PolicyInput } from '../../../../src/bot/domain/policy.js';
import { approvalInput } from '../../../../src/bot/slack/approvals/from-record.js';
import { progressLine } from '../../../../src/bot/slack/approvals/approval-message.js';

const GROUPS = { treasury: ['U0TREAS01', 'U0TREAS02', 'U0TREAS03'], risk: ['U0RISK001', 'U0RISK002'] };
const POLICY: Partial<PolicyInput> = {
  approvers: undefined,
  requesters: [REQUESTER],
  groups: GROUPS,
  rules: [
    {
      name: 'large withdrawals',
      match: { kinds: ['crypto_withdrawal', 'fiat_withdrawal'], valueAtLeast: { amount: '100000', currency: 'USD' } },
      require: [
        { group: 'treasury', count: 2 },
        { group: 'risk', count: 1 },
      ],
    },
    { name: 'everything else', require: [{ group: 'treasury', count: 2 }] },
  ],
  source: { from: 'file', path: 'policy.yaml', hash: 'f'.repeat(64) },
};

let open: SandboxForEngine[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function large(): Promise<{ world: World; id: string; hash: string }> {
  const { world, sandbox } = await sandboxWorld('group-rules', { policy: POLICY });
  open.push(sandbox);
  sandbox.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '60000', driftBps: 0, volatilityBps: 0 });
  const { address, entry } = await usableDestination(sandbox.api, Date.now(), 'BTC');
  const input: RequestInput = {
    kind: 'crypto_withdrawal',
    cryptoCurrencyId: entry.id,
    addressBookId: address.id,
    amount: '2',
  };
  const r = await world.engine.request(REQUESTER, input);
  if (!r.ok) throw new Error(r.message);
  return { world, id: r.request.id, hash: r.request.snapshotHash };
}

describe('groups and rules', () => {
  it('a large withdrawal waits for risk after two treasury approvals, and says so', async () => {
    const { world, id, hash } = await large();
    const created = await world.record(id);
    expect(created.snapshot.rule).toMatchObject({
      name: 'large withdrawals',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(world.auditOf('request.created', id)[0]?.data).toMatchObject({
      rule: { name: 'large withdrawals' },
      policy: { from: 'file', path: 'policy.yaml' },
    });
    expect(await world.engine.approve(id, 'U0TREAS01', hash)).toMatchObject({ ok: true, count: 1, required: 3 });
    expect(await world.engine.approve(id, 'U0TREAS02', hash)).toMatchObject({ ok: true, count: 2, approved: false });
    const waiting = await world.record(id);
    expect(waiting.state).toBe('pending');
    expect(progressLine(approvalInput(waiting, false))).toBe(
      'Rule *large withdrawals* · Needs 1 of risk · treasury done (<@U0TREAS01>, <@U0TREAS02>)',
    );
    // A third treasury approval adds nothing: refused, in the policy's words.
    expect(await world.engine.approve(id, 'U0TREAS03', hash)).toMatchObject({
      ok: false,
      reason: 'not_in_group',
      message:
        'The groups you are in have all the approvals this request needs from them; it still needs 1 of risk, and you are not in risk.',
    });
    expect(await world.engine.approve(id, 'U_OUT', hash)).toMatchObject({
      ok: false,
      reason: 'not_approver',
      message: 'You are not in treasury or risk, so your approval cannot count for this request.',
    });
    expect(await world.engine.approve(id, 'U0RISK001', hash)).toMatchObject({ ok: true, count: 3, approved: true });
    expect(world.auditOf('approval.counted', id).at(-1)?.data).toMatchObject({
      rule: 'large withdrawals',
      tally: [
        { group: 'treasury', count: 2, by: ['U0TREAS01', 'U0TREAS02'] },
        { group: 'risk', count: 1, by: ['U0RISK001'] },
      ],
    });
  });

  it('the first treasury approval reads "Needs 2 of treasury (1 so far: @Ana) and 1 of risk"', async () => {
    const { world, id, hash } = await large();
    await world.engine.approve(id, 'U0TREAS01', hash);
    expect(progressLine(approvalInput(await world.record(id), false))).toBe(
      'Rule *large withdrawals* · Needs 2 of treasury (1 so far: <@U0TREAS01>) and 1 of risk',
    );
  });

  it('a person removed from a group stops counting at once; a changed file does not change the rule a request keeps', async () => {
    const { world, id, hash } = await large();
    await world.engine.approve(id, 'U0TREAS01', hash);
    await world.engine.approve(id, 'U0TREAS02', hash);
    // The file changes: U0TREAS02 leaves treasury, and large withdrawals would now need two of risk.
    await world.restart({
      ...POLICY,
      groups: { treasury: ['U0TREAS01', 'U0TREAS03', 'U0TREAS04'], risk: ['U0RISK001', 'U0RISK002'] },
      rules: [
        {
          name: 'large withdrawals',
          match: { kinds: ['crypto_withdrawal'], valueAtLeast: { amount: '100000', currency: 'USD' } },
          require: [
            { group: 'treasury', count: 2 },
            { group: 'risk', count: 2 },
          ],
        },
        { name: 'everything else', require: [{ group: 'treasury', count: 2 }] },
      ],
    });
    // Risk's approval does not complete it: U0TREAS02 no longer counts for treasury.
    expect(await world.engine.approve(id, 'U0RISK001', hash)).toMatchObject({ ok: true, count: 2, approved: false });
    // The kept rule needs one of risk, not two: the next treasury approval completes it.
    expect(await world.engine.approve(id, 'U0TREAS03', hash)).toMatchObject({
      ok: true,
      count: 3,
      required: 3,
      approved: true,
    });
  });
});
