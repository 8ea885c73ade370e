/** An approval message's input for a crypto withdrawal, for the builders' tests (blocks, display text). */
import type { ApprovalMessageInput } from '../../../../src/bot/slack/approvals/approval-message.js';

export const T0 = Date.UTC(2024, 4, 1, 14, 3, 0);

export function cryptoRequest(overrides: Partial<ApprovalMessageInput> = {}): ApprovalMessageInput {
  return {
    requestId: 'R7K2QX',
    requesterId: 'U0REQ0001',
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
    request: {
      kind: 'crypto_withdrawal',
      asset: 'BTC',
      network: 'Bitcoin',
      amount: '1.5',
      fee: '0.0005',
      total: '1.5005',
      destination: { label: 'Cold wallet', address: '0x1234567890abcdef1234567890abcdef12345678' },
      note: 'Settlement for desk',
    },
    requiredApprovals: 2,
    approvals: [],
    sandbox: false,
    ...overrides,
  };
}
