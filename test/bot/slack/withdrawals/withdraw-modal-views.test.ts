/** The /withdraw modals' builders: structure, escaping and Block Kit's limits. */
import { describe, expect, it } from 'vitest';
import {
  cryptoWithdrawView,
  destinationState,
  fiatWithdrawView,
  withdrawChoiceView,
} from '../../../../src/bot/slack/withdrawals/withdraw-modal.js';
import { ACTION, BLOCK, dynamicBlockId, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);
const ids = (view: { blocks: { block_id?: string }[] }) => view.blocks.map((b) => b.block_id).filter(Boolean);

describe('modal builders', () => {
  it('the choice view offers Crypto and Fiat', () => {
    const v = withdrawChoiceView('{}', true);
    expect(JSON.stringify(v)).toContain(ACTION.withdrawChooseCrypto);
    expect(ids(v)).toEqual([BLOCK.sandboxBanner, BLOCK.withdrawChoice]);
    ok(v);
  });

  it('the crypto form keeps within limits with 150 entries and long labels', () => {
    const entries = Array.from({ length: 150 }, (_, i) => ({
      id: i,
      asset: `A${i}`,
      network: 'N'.repeat(100),
      precision: 8,
      fee: '0.1',
      available: '123456789.12345678',
    }));
    const destinations = Array.from({ length: 120 }, (_, i) => ({
      id: `d${i}`,
      label: 'L'.repeat(200),
      address: `0x${'a'.repeat(40)}`,
      verified: i % 2 === 0,
      cooldownUntil: NOW + 60_000,
    }));
    const v = cryptoWithdrawView({
      entries,
      selectedEntryId: 3,
      destinations,
      now: NOW,
      privateMetadata: '{}',
      sandbox: false,
      summary: { currency: 'A3', amount: '1', fee: '0.1', total: '1.1' },
    });
    ok(v);
    expect(ids(v)).toContain(dynamicBlockId.withdrawDestination(3));
    expect(ids(v)).toContain(BLOCK.withdrawSummary);
    expect(v.submit?.text).toBe('Ask for approval');
    // Slack shows at most 100 options: the cut is said under each select, with where to see the rest.
    const inputs = (
      v.blocks as { type: string; block_id?: string; element?: { options?: unknown[] }; hint?: { text: string } }[]
    ).filter((b) => b.type === 'input');
    const entrySelect = inputs.find((b) => b.block_id === INPUT.withdrawEntry)!;
    expect(entrySelect.element?.options).toHaveLength(100);
    expect(entrySelect.hint?.text).toBe(
      'Lists the first 100 of 150 currencies and networks (Slack shows at most 100); /balances shows every asset.',
    );
    const destinationSelect = inputs.find((b) => b.block_id === dynamicBlockId.withdrawDestination(3))!;
    expect(destinationSelect.element?.options).toHaveLength(100);
    expect(destinationSelect.hint?.text).toMatch(/^Lists the first 100 of 120 saved addresses for this network/);
  });

  it('says nothing of a cut when every option fits', () => {
    const entries = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      asset: `A${i}`,
      network: 'N',
      precision: 8,
      fee: '0.1',
      available: '1',
    }));
    const v = cryptoWithdrawView({
      entries,
      selectedEntryId: undefined,
      destinations: [],
      now: NOW,
      privateMetadata: '{}',
      sandbox: false,
    });
    expect(JSON.stringify(v)).not.toContain('Lists the first');
  });

  it('says so when a network has no saved address', () => {
    const v = cryptoWithdrawView({
      entries: [{ id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0', available: '1' }],
      selectedEntryId: 1,
      destinations: [],
      now: NOW,
      privateMetadata: '{}',
      sandbox: false,
    });
    expect(JSON.stringify(v)).toContain('mobile app; the API cannot add them');
  });

  it("describes a destination's state in zone-free words", () => {
    expect(
      destinationState({ id: 'd', label: 'x', address: 'y', verified: true, cooldownUntil: NOW + 90 * 60_000 }, NOW),
    ).toBe('verified · cooldown ends in 1 h 30 min');
    expect(destinationState({ id: 'd', label: 'x', address: 'y', verified: true }, NOW)).toBe('verified');
  });

  it('the fiat form shows limits and bank accounts for the chosen currency', () => {
    const v = fiatWithdrawView({
      currencies: [{ currency: 'SGD', fee: '5', minimum: '100', maximum: '200000', available: '1000' }],
      selectedCurrency: 'SGD',
      banks: [{ id: 42, display: 'DBS SGD ••••6789 (Desk)', verified: false }],
      privateMetadata: '{}',
      sandbox: false,
    });
    ok(v);
    const text = JSON.stringify(v);
    expect(text).toContain('from 100 SGD to 200,000 SGD');
    expect(text).toContain('self-added');
  });
});
