/** Which exchange statuses are final, by kind of record (the values are in assumptions.ts). */
import { normalizeStatus } from '../domain/status.js';
import { ORDER_FINAL_STATUSES, WITHDRAWAL_FINAL_STATUSES, FIAT_WITHDRAWAL_FINAL_STATUSES } from './assumptions.js';

export function isFinalOrderStatus(status: string): boolean {
  return (ORDER_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

export function isFinalWithdrawalStatus(status: string): boolean {
  return (WITHDRAWAL_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

export function isFinalFiatWithdrawalStatus(status: string): boolean {
  return (FIAT_WITHDRAWAL_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}
