// Which status comes when as the clock advances (values from assumptions.ts). A withdrawal's amount plus
// fee leaves `regular` at creation and is held outside the balance listing (whose `locked` must equal
// orders + alternative_products) until final: gone on completed, back on failed/rejected/cancelled.
import type {
  FIAT_WITHDRAWAL_STATUSES,
  PENDING_REASONS,
  TRAVEL_RULE_STATUSES,
  WITHDRAWAL_STATUSES,
} from '../../bot/exchange/assumptions.js';

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
export const FIAT_WITHDRAWAL_TIMELINE: readonly {
  afterMs: number;
  status: (typeof FIAT_WITHDRAWAL_STATUSES)[number];
}[] = [
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
/** A `required` deposit stays pending until counterparty info is submitted, then is reviewed this long and completes. */
export const DEPOSIT_REVIEW_MS = 10_000;

/** Default quote lifetime: expires_at = now + 2.5 s. */
export const DEFAULT_QUOTE_LIFETIME_MS = 2_500;
