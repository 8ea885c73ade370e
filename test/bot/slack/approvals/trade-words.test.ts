/** Trade messages in the desk's words: the payment method named, every price through the one amount formatter. */
import { describe, expect, it } from 'vitest';
import { approvalMessage } from '../../../../src/bot/slack/approvals/approval-message.js';
import { orderText, statusLineFor, threadPost } from '../../../../src/bot/slack/approvals/thread-status.js';
import { outcomeDm } from '../../../../src/bot/slack/approvals/requester-dms.js';
import type { TradeView } from '../../../../src/bot/slack/approvals/request-view.js';

const T0 = Date.UTC(2024, 4, 1, 14, 3, 0);
const TRADE: TradeView = {
  kind: 'trade',
  symbol: 'BTC-USD',
  side: 'buy',
  quantity: '0.1',
  quantityCurrency: 'BTC',
  paymentMethod: 'user_balance',
  limitPrice: '65626.5',
  slippageBps: 50,
  quote: { price: '65299.46', expiresAt: T0 + 30_000 },
};
const ORDER = {
  orderId: '3f2a9c1e-0000-4000-8000-000000000001',
  status: 'filled',
  price: '65299.46',
  priceCurrency: 'USD',
};

describe('trade messages', () => {
  it('name the payment method in words and group every price', () => {
    const text = JSON.stringify(
      approvalMessage({
        requestId: 'RT1',
        requesterId: 'U0REQ0001',
        createdAt: T0,
        request: TRADE,
        requiredApprovals: 2,
        approvals: [],
        sandbox: false,
      }).blocks,
    );
    expect(text).toContain('*Paid from*\\nAccount balance');
    expect(text).not.toContain('user_balance');
    expect(text).toContain('65,299.46 USD');
  });

  it('say which order completed and at what price, formatted', () => {
    expect(orderText(ORDER)).toBe(`order ${ORDER.orderId} at 65,299.46 USD`);
    expect(statusLineFor({ type: 'completed', at: T0, order: ORDER }).text).toBe(
      `Completed: order ${ORDER.orderId} at 65,299.46 USD`,
    );
    expect(threadPost({ type: 'completed', at: T0, order: ORDER }).text).toContain('price 65,299.46 USD');
    expect(
      statusLineFor({
        type: 'requoted',
        at: T0,
        pair: 'BTC-USD',
        newPrice: '65310.2',
        limitPrice: '65626.5',
        counter: 'USD',
      }).text,
    ).toBe('Re-quoted at 65,310.2 USD, within the limit: ordering');
    const dm = outcomeDm({
      requestId: 'RT1',
      request: TRADE,
      outcome: { kind: 'completed', at: T0, orderText: `Filled as ${orderText(ORDER)}.` },
    });
    expect(dm.text).toContain('65,299.46 USD');
  });
});
