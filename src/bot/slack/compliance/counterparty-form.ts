/** The counterparty modal's state and metadata, read into the use case's pure check (engine/compliance/declaration.ts). */
import { INPUT } from '../kit/slack-ids.js';
import type { DeclarationForm } from '../../engine/compliance/declaration.js';
import { fieldValue, type StateValues } from '../kit/view-state.js';

export interface CounterpartyMeta {
  k: 'cp';
  /** The transaction, when the modal was opened for one. */
  t?: string;
  /** The deposit message it was opened from (for the confirmation in its thread). */
  c?: string;
  m?: string;
}

export const TRANSACTION_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function counterpartyValues(values: StateValues | undefined): DeclarationForm {
  const v = (id: string) => fieldValue(values, id);
  return {
    transactionId: v(INPUT.cpTransaction),
    entityType: v(INPUT.cpEntityType),
    legalName: v(INPUT.cpLegalName),
    ownership: v(INPUT.cpOwnership),
    documentNumber: v(INPUT.cpDocumentNumber),
    address1: v(INPUT.cpAddress1),
    address2: v(INPUT.cpAddress2),
    postcode: v(INPUT.cpPostcode),
    district: v(INPUT.cpDistrict),
    region: v(INPUT.cpRegion),
    countryCode: v(INPUT.cpCountryCode),
    walletId: v(INPUT.cpWallet),
    walletName: v(INPUT.cpWalletName),
  };
}
