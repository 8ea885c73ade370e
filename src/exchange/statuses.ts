import { ORDER_FINAL_STATUSES, WITHDRAWAL_FINAL_STATUSES, FIAT_WITHDRAWAL_FINAL_STATUSES } from './assumptions.js';

/** Order statuses arrive as `Completed` or `completed`: compare in one place, case-insensitively. */
export function normalizeStatus(status: string): string {
  return status.trim().toLowerCase();
}

export function sameStatus(a: string, b: string): boolean {
  return normalizeStatus(a) === normalizeStatus(b);
}

export function isFinalOrderStatus(status: string): boolean {
  return (ORDER_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

export function isFinalWithdrawalStatus(status: string): boolean {
  return (WITHDRAWAL_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

export function isFinalFiatWithdrawalStatus(status: string): boolean {
  return (FIAT_WITHDRAWAL_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}
