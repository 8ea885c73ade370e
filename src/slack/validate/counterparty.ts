/**
 * The counterparty declaration modal's values -> exactly the reference's counterparty object:
 * no field it does not define, nested objects only when filled, and a wallet id or name whenever
 * the wallet part is sent.
 */
import type { CounterpartyInfoBody } from '../../exchange/schemas.js';
import { INPUT } from '../ids.js';
import { ISO_COUNTRY_CODES } from './countries.js';
import { invalid, valid, type Checked, type FieldErrors } from './field-errors.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Values read from view.state (text inputs, radio and select values); undefined when empty. */
export interface CounterpartyValues {
  /** Typed only when the modal was not opened for a known transaction. */
  transactionId?: string | undefined;
  entityType?: string | undefined;
  legalName?: string | undefined;
  ownership?: string | undefined;
  documentNumber?: string | undefined;
  address1?: string | undefined;
  address2?: string | undefined;
  postcode?: string | undefined;
  district?: string | undefined;
  region?: string | undefined;
  countryCode?: string | undefined;
  /** Selected known wallet id (external_select value). */
  walletId?: string | undefined;
  walletName?: string | undefined;
}

export interface CounterpartyChecked {
  transactionId: string;
  body: CounterpartyInfoBody;
  /** True when a typed wallet name will create an unverified wallet (compliance review). */
  createsUnverifiedWallet: boolean;
}

/**
 * Check the values and build the request body.
 * @param knownTransactionId the transaction the modal was opened for, if any
 */
export function checkCounterparty(v: CounterpartyValues, knownTransactionId?: string): Checked<CounterpartyChecked> {
  const errors: FieldErrors = {};
  const get = (s: string | undefined): string | undefined => {
    const t = s?.trim();
    return t ? t : undefined;
  };

  const transactionId = knownTransactionId ?? get(v.transactionId);
  if (!transactionId) errors[INPUT.cpTransaction] = 'Enter the deposit\'s transaction id.';
  else if (!UUID.test(transactionId)) errors[INPUT.cpTransaction] = 'A transaction id looks like 1b4e28ba-2fa1-11d2-883f-0016d3cca427.';

  const entityType = get(v.entityType);
  if (entityType !== 'individual' && entityType !== 'entity') errors[INPUT.cpEntityType] = 'Choose an individual or an entity.';
  const legalName = get(v.legalName);
  if (!legalName) errors[INPUT.cpLegalName] = 'Enter the sender\'s full legal name.';
  const ownership = get(v.ownership);
  if (ownership !== 'first_party' && ownership !== 'third_party') errors[INPUT.cpOwnership] = 'Choose whose wallet sent the funds.';

  const addressParts = {
    address1: get(v.address1),
    address2: get(v.address2),
    postcode: get(v.postcode),
    district: get(v.district),
    region: get(v.region),
  };
  const anyAddress = Object.values(addressParts).some((x) => x !== undefined);
  const country = get(v.countryCode)?.toUpperCase();
  if (country !== undefined && !ISO_COUNTRY_CODES.has(country)) {
    errors[INPUT.cpCountryCode] = 'Use the two-letter ISO country code, e.g. SG, GB or US.';
  } else if (anyAddress && country === undefined) {
    errors[INPUT.cpCountryCode] = 'The country code is required once any address field is filled.';
  }

  const walletId = get(v.walletId);
  const walletName = get(v.walletName);
  if (walletId && walletName) errors[INPUT.cpWalletName] = 'Choose a listed wallet or type a name, not both.';

  if (Object.keys(errors).length > 0 || !transactionId || !legalName) return invalid(errors);

  const filledAddress = Object.fromEntries(Object.entries(addressParts).filter(([, x]) => x !== undefined)) as Record<string, string>;
  const documentNumber = get(v.documentNumber);
  const body: CounterpartyInfoBody = {
    wallet_identity_attributes: {
      entity_type: entityType as 'individual' | 'entity',
      entity_name: legalName,
      ownership: ownership as 'first_party' | 'third_party',
      ...(documentNumber ? { entity_identity_document_number: documentNumber } : {}),
      ...(country ? { address_attributes: { country_code: country, ...filledAddress } } : {}),
    },
    ...(walletId ? { crypto_wallet_attributes: { id: walletId } } : walletName ? { crypto_wallet_attributes: { name: walletName } } : {}),
  };
  return valid({ transactionId, body, createsUnverifiedWallet: !walletId && !!walletName });
}
