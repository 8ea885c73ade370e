// Received crypto deposits in the engine's terms. What their statuses mean for compliance is read
// here; the values are guesses in assumptions.ts (the reference shows none).
import { normalizeStatus } from '../../domain/status.js';
import type { Deposit } from '../../ports/exchange-port.js';
import {
  DEPOSIT_FINAL_STATUSES,
  TRAVEL_RULE_DECLARABLE_STATUSES,
  TRAVEL_RULE_DECLARATION_NEEDED,
  TRAVEL_RULE_OPEN_STATUSES,
} from '../assumptions.js';
import type { CryptoDeposit } from '../schemas.js';

export function deposit(d: CryptoDeposit): Deposit {
  const trs = d.travel_rule_status === undefined ? null : normalizeStatus(d.travel_rule_status);
  return {
    id: d.id,
    transactionId: d.transaction.uuid,
    createdAt: d.created_at,
    status: d.status,
    travelRuleStatus: d.travel_rule_status ?? null,
    amount: d.amount ?? null,
    currency: d.crypto_currency ? { code: d.crypto_currency.code, name: d.crypto_currency.name } : null,
    toAddress: d.to_address ?? null,
    transactionHash: d.transaction_hash || null,
    linkExplorer: d.link_explorer || null,
    final: (DEPOSIT_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(d.status)),
    needsDeclaration: trs === TRAVEL_RULE_DECLARATION_NEEDED,
    // No review at all counts as declarable: the button is offered.
    acceptsDeclaration: trs === null || (TRAVEL_RULE_DECLARABLE_STATUSES as readonly string[]).includes(trs),
    reviewOpen: trs !== null && (TRAVEL_RULE_OPEN_STATUSES as readonly string[]).includes(trs),
  };
}
