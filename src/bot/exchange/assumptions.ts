// Every place where api-reference.md says "not shown", and the choice made. The client, the engine
// and the sandbox import these values, so the sandbox enforces exactly what the client assumes.

/** Accepted clock difference for X-API-Timestamp (not shown). The sandbox defaults to ±30 s. */
export const DEFAULT_TIMESTAMP_WINDOW_MS = 30_000;

/** HTTP status for a key that lacks the scope an operation needs (not shown). */
export const SCOPE_FAILURE_STATUS = 403;

/** Scopes a key can carry, and what needs them (reference "Authentication" 2). */
export const SCOPES = ['read', 'transfer', 'trade'] as const;
export type Scope = (typeof SCOPES)[number];

/** Maximum page[size] (not shown). A third-party client caps at 100; the sandbox enforces it. */
export const MAX_PAGE_SIZE = 100;

/** Cursor lists default to 2 items a page (reference "Limits"); page-number lists to 50. */
export const DEFAULT_CURSOR_PAGE_SIZE = 2;
export const DEFAULT_NUMBERED_PAGE_SIZE = 50;

/** Rate limit (not shown): polling and reads never exceed this per second per process, well below anything plausible. */
export const DEFAULT_RATE_LIMIT_PER_SECOND = 5;

/** Unit of created_at in crypto deposit and withdrawal records (not shown): epoch milliseconds. */
export const CREATED_AT_UNIT = 'ms' as const;

/**
 * Crypto withdrawal statuses (not shown), in the sandbox's order; any other value counts as still moving.
 * pending: Travel Rule check, funds locked; broadcasted: transaction_hash and link_explorer from here on;
 * completed: locked funds left; failed / rejected / cancelled: final, locked funds returned.
 */
export const WITHDRAWAL_STATUSES = [
  'pending',
  'processing',
  'broadcasted',
  'completed',
  'failed',
  'rejected',
  'cancelled',
] as const;
export const WITHDRAWAL_FINAL_STATUSES = ['completed', 'failed', 'rejected', 'cancelled'] as const;
export const WITHDRAWAL_SUCCESS_STATUS = 'completed';

/** travel_rule_status values (not shown) the sandbox uses; others are passed on verbatim. */
export const TRAVEL_RULE_STATUSES = ['pending', 'approved', 'rejected', 'required', 'submitted'] as const;

/** pending_reason values (not shown) the sandbox uses while a withdrawal is held. */
export const PENDING_REASONS = ['travel_rule_check', 'compliance_review'] as const;

/** Crypto deposit statuses (not shown). */
export const DEPOSIT_STATUSES = ['pending', 'completed'] as const;
/** Deposit statuses after which a deposit's status no longer changes (not shown; a guess beyond the sandbox's). */
export const DEPOSIT_FINAL_STATUSES = ['completed', 'failed', 'rejected', 'cancelled'] as const;
/** Deposit travel_rule_status values (not shown) still moving: `required` waits for our declaration, the others for review. */
export const TRAVEL_RULE_OPEN_STATUSES = ['required', 'pending', 'submitted'] as const;
/** The deposit travel_rule_status (not shown) that asks the receiver to declare the sender. */
export const TRAVEL_RULE_DECLARATION_NEEDED = 'required';
/** Deposit travel_rule_status values (not shown) for which a declaration can still be sent (absent counts too). */
export const TRAVEL_RULE_DECLARABLE_STATUSES = ['required', 'pending'] as const;

/** Fiat withdrawal statuses (not shown). */
export const FIAT_WITHDRAWAL_STATUSES = ['pending', 'processing', 'completed', 'rejected'] as const;
export const FIAT_WITHDRAWAL_FINAL_STATUSES = ['completed', 'rejected'] as const;

/** Order statuses (reference "States and transitions"); transitions not shown: sandbox Pending -> Open -> Completed | Cancelling -> Cancelled. */
export const ORDER_STATUSES = ['pending', 'open', 'cancelling', 'completed', 'cancelled'] as const;
export const ORDER_FINAL_STATUSES = ['completed', 'cancelled'] as const;

/**
 * Fiat withdrawal create body (not shown): bank account, currency, amount, an optional idempotency
 * `request_id` and `note` like the crypto one's (the desk reference travels in it). Others: 422.
 */
export const FIAT_WITHDRAWAL_BODY_FIELDS = ['bank_account_id', 'currency', 'amount', 'request_id', 'note'] as const;

/**
 * Whether fiat withdrawal list items carry their `note` (not shown). The sandbox lists it; the bot never
 * counts on it: without a note a record is matched by terms and time, else it goes to a person.
 */
export const FIAT_WITHDRAWAL_NOTE_LISTED = true;

/**
 * Lookup fields named without a shape (not shown): currency `withdrawal_fee`, `minimum_withdrawal` (asset
 * units); network `uuid`, `name`, `network_code`; address book `status` (only `verified` may receive),
 * `withdrawal_cooldown_until` (epoch ms or null), `wallet_identity` (null when missing).
 */
export const ADDRESS_VERIFIED_STATUS = 'verified';

/**
 * `request_id` "must not be relied on to prevent duplicates" and no record shows it: the sandbox never
 * lists it. The bot knows its own withdrawals by the desk reference in `note` (domain/desk-reference.ts).
 */

/** Quote and order error statuses (not shown): unusable quote, duplicate client_order_id, balance. */
export const QUOTE_UNUSABLE_STATUS = 422;
export const DUPLICATE_CLIENT_ORDER_ID_STATUS = 422;
/** Message the sandbox uses for a repeated client_order_id (not shown), so the engine can tell it apart. */
export const DUPLICATE_CLIENT_ORDER_ID_MESSAGE =
  'client_order_id has already been used for another order of this account';

/** True when an order refusal says its client_order_id was used already (the order exists: find it). */
export function isDuplicateClientOrderIdMessage(message: string): boolean {
  return (
    message === DUPLICATE_CLIENT_ORDER_ID_MESSAGE ||
    (/client[_ ]order[_ ]id/i.test(message) && /(already|duplicate|taken|used)/i.test(message))
  );
}

/** Messages the sandbox uses for an unusable quote, and that the engine recognises to re-quote. */
export const QUOTE_UNUSABLE_MESSAGES = {
  expired: 'Quote has expired',
  superseded: 'Quote has been superseded by a newer quote',
  used: 'Quote has already been used',
  foreign: 'Quote not found for this account',
} as const;

/** True when an order refusal says the quote itself is unusable (so a re-quote can help). */
export function isQuoteUnusableMessage(message: string): boolean {
  return /quote/i.test(message) && /(expired|superseded|already been used|not found)/i.test(message);
}

/** The counterparty operation's refusal when info exists for the transaction (reference: 422 "Counterparty info already exists"). */
export const COUNTERPARTY_EXISTS_STATUS = 422;
export const COUNTERPARTY_EXISTS_MESSAGE = 'Counterparty info already exists';

export function isCounterpartyExistsMessage(message: string): boolean {
  return /already exists/i.test(message);
}

/** Payment methods (only `user_balance` is shown). */
export const PAYMENT_METHODS = ['user_balance'] as const;

/** Fiat currencies bank accounts may hold (reference endpoint 3). */
export const BANK_CURRENCIES = ['USD', 'SGD'] as const;
