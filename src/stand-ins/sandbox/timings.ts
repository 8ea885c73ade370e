/**
 * How records move by themselves as the sandbox clock advances: the one place that says which
 * status comes when. Status values come from exchange/assumptions.ts (the reference shows none).
 *
 * Where a crypto withdrawal's money sits: the balance record has only `orders` and
 * `alternative_products` locked parts, and `locked` must equal their sum, so a withdrawal's
 * amount plus fee leaves `regular` at creation and is held outside the balance listing (visible
 * through the control surface) until the withdrawal is final: on `completed` it leaves the
 * account, on `failed`/`rejected`/`cancelled` it returns to `regular`. Fiat withdrawals alike.
 */
import type { FIAT_WITHDRAWAL_STATUSES, PENDING_REASONS, TRAVEL_RULE_STATUSES, WITHDRAWAL_STATUSES } from '../../bot/exchange/assumptions.js';

export interface WithdrawalStage {
  /** Time after creation at which this stage is entered. */
  afterMs: number;
  status: (typeof WITHDRAWAL_STATUSES)[number];
  travel_rule_status: (typeof TRAVEL_RULE_STATUSES)[number];
  pending_reason: (typeof PENDING_REASONS)[number] | null;
  /** From this stage on the withdrawal has a transaction hash and explorer link. */
  onChain: boolean;
}

/** Crypto withdrawal: pending (Travel Rule check) 5 s, processing 10 s, broadcasted 45 s, completed. */
export const WITHDRAWAL_TIMELINE: readonly WithdrawalStage[] = [
  { afterMs: 0, status: 'pending', travel_rule_status: 'pending', pending_reason: 'travel_rule_check', onChain: false },
  { afterMs: 5_000, status: 'processing', travel_rule_status: 'approved', pending_reason: null, onChain: false },
  { afterMs: 15_000, status: 'broadcasted', travel_rule_status: 'approved', pending_reason: null, onChain: true },
  { afterMs: 60_000, status: 'completed', travel_rule_status: 'approved', pending_reason: null, onChain: true },
];

/** Fiat withdrawal: pending 30 s, processing until 2 min, then completed. */
export const FIAT_WITHDRAWAL_TIMELINE: readonly { afterMs: number; status: (typeof FIAT_WITHDRAWAL_STATUSES)[number] }[] = [
  { afterMs: 0, status: 'pending' },
  { afterMs: 30_000, status: 'processing' },
  { afterMs: 120_000, status: 'completed' },
];

/** Order: Pending for 1 s, Open until 3 s after creation, then Completed and settled. */
export const ORDER_OPEN_AFTER_MS = 1_000;
export const ORDER_COMPLETE_AFTER_MS = 3_000;
/** A cancel request (control surface) shows Cancelling for this long before Cancelled. */
export const ORDER_CANCELLING_MS = 1_000;

/** An injected crypto deposit confirms (completed, credited) after this long. */
export const DEPOSIT_CONFIRM_MS = 30_000;
/**
 * A deposit whose travel_rule_status is `required` stays pending until counterparty info is
 * submitted (travel_rule_status `submitted`), then is reviewed for this long and completes.
 */
export const DEPOSIT_REVIEW_MS = 10_000;

/** Default quote lifetime (issue 3): expires_at = now + 2.5 s. */
export const DEFAULT_QUOTE_LIFETIME_MS = 2_500;
