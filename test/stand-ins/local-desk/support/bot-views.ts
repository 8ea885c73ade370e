/**
 * The bot's own Block Kit for the local desk's tests: modals and messages built with the bot's
 * builders (src/bot/slack), so the page is tested on what the bot really sends.
 */
import { approvalMessage, type ApprovalMessageInput } from '../../../../src/bot/slack/approvals/approval-message.js';
import { counterpartyView, walletSearchAnswer } from '../../../../src/bot/slack/compliance/counterparty-modal.js';
import {
  cryptoWithdrawView,
  withdrawChoiceView,
  type CryptoWithdrawViewInput,
} from '../../../../src/bot/slack/withdrawals/withdraw-modal.js';

export const PEOPLE = {
  trader: { id: 'U0TRADER', name: 'Tina Trader', initials: 'TT', role: 'trader', tz: 'Asia/Singapore' },
  approver1: { id: 'U0APPROVE1', name: 'Alex Approver', initials: 'AA', role: 'approver', tz: 'Europe/London' },
  approver2: { id: 'U0APPROVE2', name: 'Bea Approver', initials: 'BA', role: 'approver', tz: 'America/New_York' },
  compliance: { id: 'U0COMPLY', name: 'Carl Compliance', initials: 'CC', role: 'compliance', tz: 'Asia/Singapore' },
  outsider: { id: 'U0OUTSIDE', name: 'Olga Outsider', initials: 'OO', role: 'outsider', tz: 'UTC' },
} as const;

/** 2024-05-01 14:03 UTC: the fixtures' "now". */
export const AT = Date.UTC(2024, 4, 1, 14, 3, 0);

export const ENTRIES: CryptoWithdrawViewInput['entries'] = [
  { id: 11, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0.0005', minimum: '0.001', available: '2.5' },
  { id: 12, asset: 'USDT', network: 'Ethereum', precision: 6, fee: '5', available: '120000' },
];

export const DESTINATIONS: CryptoWithdrawViewInput['destinations'] = [
  { id: 'd1', label: 'Cold wallet', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', verified: true },
  { id: 'd2', label: 'OTC desk', address: 'bc1q9h6tq9m4h4x0sd7yq0n6sw5q8e0p8r2y7s4k3f', verified: false },
];

export const choiceView = () => withdrawChoiceView('{}', true);

export const cryptoView = (over: Partial<CryptoWithdrawViewInput> = {}) =>
  cryptoWithdrawView({
    entries: ENTRIES,
    destinations: [],
    now: AT,
    privateMetadata: '{"r":"x"}',
    sandbox: true,
    ...over,
  });

export const walletModal = () =>
  counterpartyView({
    transactionId: '5d1f0c7e-0000-4000-8000-00000000abcd',
    deposit: { asset: 'BTC', amount: '0.75', transactionHash: '0xfeedbeefcafe0123456789abcdef' },
    privateMetadata: '{}',
    sandbox: true,
  });

export const walletAnswer = () =>
  walletSearchAnswer([
    { id: 'w1', name: 'Binance', type: 'hosted', riskLevel: 'low' },
    { id: 'w2', name: 'Bitstamp', type: 'hosted', riskLevel: 'medium' },
  ]);

/** The request the fixtures' approval messages are about. */
export const PENDING_REQUEST: ApprovalMessageInput['request'] = {
  kind: 'crypto_withdrawal',
  asset: 'BTC',
  network: 'Bitcoin',
  amount: '0.25',
  fee: '0.0005',
  total: '0.2505',
  destination: { label: 'Cold wallet', address: DESTINATIONS[0]!.address },
  purpose: 'Rebalance to cold storage',
  note: 'Before the weekend <please>',
};

export const pendingApproval = (over: Partial<ApprovalMessageInput> = {}) =>
  approvalMessage({
    requestId: 'R7K2QX',
    requesterId: PEOPLE.trader.id,
    createdAt: AT,
    expiresAt: AT + 3_600_000,
    request: PENDING_REQUEST,
    snapshotHash: '3f2a9c',
    requiredApprovals: 2,
    approvals: [],
    sandbox: true,
    ...over,
  });
