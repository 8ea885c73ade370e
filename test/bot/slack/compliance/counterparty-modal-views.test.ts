/** The counterparty modal's builders: the reference's fields, wallet options and search answers within Slack's limits. */
import { describe, expect, it } from 'vitest';
import {
  counterpartyView,
  walletOptions,
  walletSearchAnswer,
} from '../../../../src/bot/slack/compliance/counterparty-modal.js';
import { BLOCK, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';

const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);
const ids = (view: { blocks: { block_id?: string }[] }) => view.blocks.map((b) => b.block_id).filter(Boolean);

describe('modal builders', () => {
  it("the counterparty modal has the reference's fields and the unverified-wallet warning", () => {
    const v = counterpartyView({ privateMetadata: '{}', sandbox: false });
    ok(v);
    expect(ids(v)).toEqual(
      expect.arrayContaining([
        INPUT.cpTransaction,
        INPUT.cpEntityType,
        INPUT.cpLegalName,
        INPUT.cpOwnership,
        INPUT.cpDocumentNumber,
        INPUT.cpAddress1,
        INPUT.cpCountryCode,
        INPUT.cpWallet,
        INPUT.cpWalletName,
        BLOCK.cpWalletWarning,
      ]),
    );
    expect(JSON.stringify(v)).toContain('unverified');
  });

  it('wallet options show type and risk, within option limits', () => {
    const opts = walletOptions(
      Array.from({ length: 120 }, (_, i) => ({
        id: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`,
        name: 'N'.repeat(100),
        type: 'hosted' as const,
        riskLevel: 'high' as const,
      })),
    );
    expect(opts).toHaveLength(100);
    expect(opts[0]!.text.text.length).toBeLessThanOrEqual(75);
    expect(opts[0]!.description?.text).toBe('hosted (exchange or custodian) · HIGH risk');
  });
});

describe('wallet search answer', () => {
  const wallet = (i: number) => ({
    id: `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`,
    name: `Wallet ${i}`,
    type: 'hosted' as const,
    riskLevel: 'low' as const,
  });
  it('past 100 matches, gives the first 100 under a label saying how many matched and that typing narrows them', () => {
    const answer = walletSearchAnswer(Array.from({ length: 150 }, (_, i) => wallet(i)));
    if (!('option_groups' in answer)) throw new Error('expected option groups');
    expect(answer.option_groups).toHaveLength(1);
    expect(answer.option_groups[0]!.label.text).toBe('First 100 of 150 matches: type more to narrow');
    expect(answer.option_groups[0]!.options).toHaveLength(100);
    expect(answer.option_groups[0]!.options.at(-1)!.text.text).toBe('Wallet 99');
  });

  it('gives plain options when every match fits', () => {
    expect(walletSearchAnswer(Array.from({ length: 100 }, (_, i) => wallet(i)))).toEqual({
      options: expect.any(Array),
    });
    expect(
      (walletSearchAnswer(Array.from({ length: 100 }, (_, i) => wallet(i))) as { options: unknown[] }).options,
    ).toHaveLength(100);
  });
});
