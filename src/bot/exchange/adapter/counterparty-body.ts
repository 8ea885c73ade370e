/** A counterparty declaration -> exactly the reference's counterparty object, and the refusal that means "declared already". */
import type { CounterpartyDeclaration } from '../../ports/exchange-port.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import type { ExchangeApi } from '../wire-api.js';
import { COUNTERPARTY_EXISTS_STATUS, isCounterpartyExistsMessage } from '../assumptions.js';
import { counterpartyInfoBody, type CounterpartyInfoBody } from '../schemas.js';

export async function declareCounterparty(
  api: ExchangeApi,
  transactionId: string,
  declaration: CounterpartyDeclaration,
): Promise<Record<string, unknown>> {
  try {
    return await api.submitCounterpartyInfo(transactionId, counterpartyBody(declaration));
  } catch (err) {
    if (
      isExchangeError(err) &&
      err.status === COUNTERPARTY_EXISTS_STATUS &&
      err.messages.some(isCounterpartyExistsMessage)
    )
      throw err.as('counterparty_already_declared');
    throw err;
  }
}

export function counterpartyBody(d: CounterpartyDeclaration): CounterpartyInfoBody {
  const { countryCode, ...address } = d.address ?? { countryCode: undefined };
  const body: CounterpartyInfoBody = {
    wallet_identity_attributes: {
      entity_type: d.entityType,
      entity_name: d.legalName,
      ownership: d.ownership,
      ...(d.documentNumber !== undefined ? { entity_identity_document_number: d.documentNumber } : {}),
      ...(countryCode !== undefined ? { address_attributes: { country_code: countryCode, ...address } } : {}),
    },
    ...(d.wallet !== undefined ? { crypto_wallet_attributes: d.wallet } : {}),
  };
  // A body the reference's schema refuses would be our bug, not the person's: fail loudly.
  return counterpartyInfoBody.parse(body);
}
