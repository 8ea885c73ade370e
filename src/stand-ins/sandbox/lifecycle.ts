// Moves records along their timelines up to sandbox time `now`, before every request and control read:
// state is a function of the clock and what was asked; no timers.
import { WITHDRAWAL_FINAL_STATUSES } from '../../bot/exchange/assumptions.js';
import { creditRegular, releaseOrderLock } from './ledger.js';
import { txHash } from './seed.js';
import type { NetworkCode } from './catalog.js';
import { add } from '../../bot/domain/money.js';
import type { AccountState, CryptoWithdrawalRecord, FiatWithdrawalRecord, OrderRecord, SandboxState } from './state.js';
import {
  DEPOSIT_REVIEW_MS,
  FIAT_WITHDRAWAL_TIMELINE,
  ORDER_CANCELLING_MS,
  ORDER_COMPLETE_AFTER_MS,
  ORDER_OPEN_AFTER_MS,
  WITHDRAWAL_TIMELINE,
} from './timings.js';

export function settle(state: SandboxState, now: number): void {
  for (const account of state.accounts.values()) {
    for (const w of account.withdrawals) settleWithdrawal(state, w, now);
    for (const o of account.orders) settleOrder(account, o, now);
    settleDeposits(state, account, now);
    settleFiatWithdrawals(account, now);
  }
}

function isFinal(status: string): boolean {
  return (WITHDRAWAL_FINAL_STATUSES as readonly string[]).includes(status);
}

function settleWithdrawal(state: SandboxState, w: CryptoWithdrawalRecord, now: number): void {
  if (w.stage < 0 || w.pinned || isFinal(w.status)) return;
  while (w.stage + 1 < WITHDRAWAL_TIMELINE.length && now >= w.created_at + WITHDRAWAL_TIMELINE[w.stage + 1]!.afterMs)
    nextStage(state, w);
}

function nextStage(state: SandboxState, w: CryptoWithdrawalRecord): void {
  w.stage++;
  const stage = WITHDRAWAL_TIMELINE[w.stage]!;
  w.status = stage.status;
  w.travel_rule_status = stage.travel_rule_status;
  w.pending_reason = stage.pending_reason;
  if (stage.onChain && !w.transaction_hash) {
    const entry = state.currencies.find((c) => c.id === w.entryId)!;
    const network = state.networks.find((n) => n.uuid === entry.networkUuid)!;
    w.transaction_hash = txHash(state.rng, network.network_code as NetworkCode);
    w.link_explorer = network.explorer + w.transaction_hash;
  }
  // Completed: the held amount has left the account for good.
  if (w.status === 'completed') w.held = false;
}

/** Control: move a live withdrawal forward along its timeline to `status` and keep it there; never back, never off a final status. */
export function moveWithdrawal(
  state: SandboxState,
  w: CryptoWithdrawalRecord,
  status: (typeof WITHDRAWAL_TIMELINE)[number]['status'],
): void {
  const target = WITHDRAWAL_TIMELINE.findIndex((s) => s.status === status);
  if (w.stage < 0 || isFinal(w.status) || target < w.stage)
    throw new Error(`withdrawal ${w.id} is ${w.status}; it cannot become ${status}`);
  while (w.stage < target) nextStage(state, w);
  w.pinned = true;
}

/** What a hold may set: a status, Travel Rule status or pending reason the sandbox never gives on its own (the reference shows no values). */
export interface WithdrawalHold {
  status?: string;
  travel_rule_status?: string;
  pending_reason?: string | null;
}

/** Control: hold a live withdrawal at what `hold` sets, kept until moved on. */
export function holdWithdrawal(w: CryptoWithdrawalRecord, hold: WithdrawalHold): void {
  if (w.stage < 0 || isFinal(w.status)) throw new Error(`withdrawal ${w.id} is ${w.status}; it cannot be held`);
  if (hold.status !== undefined) w.status = hold.status;
  if (hold.travel_rule_status !== undefined) w.travel_rule_status = hold.travel_rule_status;
  if (hold.pending_reason !== undefined) w.pending_reason = hold.pending_reason;
  w.pinned = true;
}

/** Failed, rejected or cancelled from the control surface; amount plus fee return to regular. */
export function endWithdrawal(
  state: SandboxState,
  account: AccountState,
  w: CryptoWithdrawalRecord,
  status: 'failed' | 'rejected' | 'cancelled',
): void {
  if (isFinal(w.status)) throw new Error(`withdrawal ${w.id} is already ${w.status}`);
  const entry = state.currencies.find((c) => c.id === w.entryId)!;
  w.status = status;
  w.stage = -1;
  w.pending_reason = null;
  if (status === 'rejected' && w.travel_rule_status !== 'approved') w.travel_rule_status = 'rejected';
  if (w.held) creditRegular(account, entry.assetSymbol, w.total);
  w.held = false;
}

function settleOrder(account: AccountState, o: OrderRecord, now: number): void {
  if (o.status === 'pending' && !o.pinned && now >= o.created_at + ORDER_OPEN_AFTER_MS)
    openOrder(o, o.created_at + ORDER_OPEN_AFTER_MS);
  if (o.status === 'open' && !o.pinned && now >= o.created_at + ORDER_COMPLETE_AFTER_MS)
    completeOrder(account, o, o.created_at + ORDER_COMPLETE_AFTER_MS);
  if (o.status === 'cancelling' && now >= o.statusSince + ORDER_CANCELLING_MS) {
    o.status = 'cancelled';
    o.statusSince += ORDER_CANCELLING_MS;
    releaseOrderLock(account, o.paidCurrency, o.paidAmount, true);
  }
}

function openOrder(o: OrderRecord, at: number): void {
  o.status = 'open';
  o.statusSince = at;
}

function completeOrder(account: AccountState, o: OrderRecord, at: number): void {
  o.status = 'completed';
  o.statusSince = at;
  releaseOrderLock(account, o.paidCurrency, o.paidAmount, false);
  creditRegular(account, o.receivedCurrency, o.net_amount);
}

/** Control: move a live order forward (Pending, Open, Completed and settled) to `status` and keep it there; never back. */
export function moveOrder(
  account: AccountState,
  o: OrderRecord,
  now: number,
  status: 'pending' | 'open' | 'completed',
): void {
  const path = ['pending', 'open', 'completed'] as const;
  const at = path.indexOf(o.status as (typeof path)[number]);
  if (at < 0 || o.status === 'completed' || path.indexOf(status) < at)
    throw new Error(`order ${o.id} is ${o.status}; it cannot become ${status}`);
  if (o.status === 'pending' && status !== 'pending') openOrder(o, now);
  if (status === 'completed') completeOrder(account, o, now);
  o.pinned = true;
}

/** Control: ask a live order to cancel (Cancelling now, Cancelled a moment later). */
export function cancelOrder(o: OrderRecord, now: number, reason: string): void {
  if (o.status !== 'pending' && o.status !== 'open') throw new Error(`order ${o.id} is ${o.status}, not cancellable`);
  o.status = 'cancelling';
  o.statusSince = now;
  o.cancel_reason = reason;
}

function settleDeposits(state: SandboxState, account: AccountState, now: number): void {
  for (const d of account.deposits) {
    if (d.status !== 'pending' || d.completesAt === null || now < d.completesAt) continue;
    d.status = 'completed';
    if (d.travel_rule_status === 'submitted' || d.travel_rule_status === 'pending') d.travel_rule_status = 'approved';
    if (!d.credited) {
      const entry = state.currencies.find((c) => c.id === d.entryId)!;
      creditRegular(account, entry.assetSymbol, d.amount);
      d.credited = true;
    }
  }
}

/** Counterparty info received: the deposit is reviewed, then completes. */
export function startDepositReview(account: AccountState, transactionUuid: string, now: number): void {
  const d = account.deposits.find((x) => x.transactionUuid === transactionUuid);
  if (!d) return;
  if (d.travel_rule_status === 'required') d.travel_rule_status = 'submitted';
  if (d.status === 'pending' && d.completesAt === null) d.completesAt = now + DEPOSIT_REVIEW_MS;
}

function settleFiatWithdrawals(account: AccountState, now: number): void {
  for (const w of account.fiatWithdrawals) {
    if (w.stage < 0 || w.pinned) continue;
    while (
      w.stage + 1 < FIAT_WITHDRAWAL_TIMELINE.length &&
      now >= w.created_at + FIAT_WITHDRAWAL_TIMELINE[w.stage + 1]!.afterMs
    ) {
      w.stage++;
      w.status = FIAT_WITHDRAWAL_TIMELINE[w.stage]!.status;
    }
    if (w.status === 'completed') w.held = false;
  }
}

/** Control: move a live fiat withdrawal forward along its timeline to `status` and keep it there, or reject it (amount plus fee return). */
export function moveFiatWithdrawal(
  account: AccountState,
  w: FiatWithdrawalRecord,
  status: (typeof FIAT_WITHDRAWAL_TIMELINE)[number]['status'] | 'rejected',
): void {
  const target = FIAT_WITHDRAWAL_TIMELINE.findIndex((s) => s.status === status);
  const final = w.stage < 0 || w.status === 'completed';
  if (final || (status !== 'rejected' && target < w.stage))
    throw new Error(`fiat withdrawal ${w.id} is ${w.status}; it cannot become ${status}`);
  if (status === 'rejected') {
    w.status = 'rejected';
    w.stage = -1;
    if (w.held) creditRegular(account, w.currency, add(w.amount, w.withdrawal_fee));
    w.held = false;
    return;
  }
  while (w.stage < target) {
    w.stage++;
    w.status = FIAT_WITHDRAWAL_TIMELINE[w.stage]!.status;
  }
  if (w.status === 'completed') w.held = false;
  w.pinned = true;
}
