/**
 * A counterparty declaration as a person fills it in (plain strings, any of them missing) ->
 * the port's CounterpartyDeclaration (the port maps it to the reference's object): optional
 * parts only when filled, a country code required once any address field is filled, and a
 * wallet id or name, not both.
 * Pure: the Slack layer uses it to answer a modal at once, the use case again before sending.
 */
import { KNOWN_WALLET_ID, type CounterpartyDeclaration } from '../../ports/exchange-port.js';
import { isIsoCountryCode } from './country-codes.js';

export const DECLARATION_FIELDS = [
  'transactionId',
  'entityType',
  'legalName',
  'ownership',
  'documentNumber',
  'address1',
  'address2',
  'postcode',
  'district',
  'region',
  'countryCode',
  'walletId',
  'walletName',
] as const;
export type DeclarationField = (typeof DECLARATION_FIELDS)[number];

/** What the form holds; empty and whitespace-only values count as not filled. */
export type DeclarationForm = Partial<Record<DeclarationField, string | null | undefined>>;

/** Plain-words problems, by field. */
export type DeclarationErrors = Partial<Record<DeclarationField, string>>;

export interface CheckedDeclaration {
  transactionId: string;
  declaration: CounterpartyDeclaration;
  /** A typed wallet name creates an unverified wallet at the exchange and starts a compliance review. */
  createsUnverifiedWallet: boolean;
}

export type DeclarationCheck = { ok: true; value: CheckedDeclaration } | { ok: false; errors: DeclarationErrors };

/** The address fields of the reference besides country_code, in its order. */
const ADDRESS_FIELDS = ['address1', 'address2', 'postcode', 'district', 'region'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DECLARATION_MESSAGES = {
  transactionMissing: "Enter the deposit's transaction id.",
  transactionShape: 'A transaction id is a UUID, like 1b4e28ba-2fa1-11d2-883f-0016d3cca427.',
  entityType: 'Choose whether the sender is an individual or an entity.',
  legalName: "Enter the sender's full legal name.",
  ownership: 'Choose whose wallet sent the funds: first party (the originator) or third party.',
  countryRequired: 'The country code is required once any address field is filled.',
  countryUnknown: 'Use a two-letter ISO 3166-1 country code, such as SG, GB or US.',
  walletBoth: 'Choose a listed wallet or type a name, not both.',
  walletId: 'Pick the wallet from the list; this is not a known wallet id.',
} as const;

/**
 * Check a declaration and build the request body.
 * @example checkDeclaration({ transactionId: tx, entityType: 'entity', legalName: 'Acme Pte Ltd', ownership: 'third_party', walletName: 'Acme cold' })
 */
export function checkDeclaration(form: DeclarationForm): DeclarationCheck {
  const v = (field: DeclarationField): string | undefined => {
    const t = form[field]?.trim();
    return t ? t : undefined;
  };
  const errors: DeclarationErrors = {};

  const transactionId = v('transactionId');
  if (transactionId === undefined) errors.transactionId = DECLARATION_MESSAGES.transactionMissing;
  else if (!UUID.test(transactionId)) errors.transactionId = DECLARATION_MESSAGES.transactionShape;

  const entityType = v('entityType');
  if (entityType !== 'individual' && entityType !== 'entity') errors.entityType = DECLARATION_MESSAGES.entityType;
  const legalName = v('legalName');
  if (legalName === undefined) errors.legalName = DECLARATION_MESSAGES.legalName;
  const ownership = v('ownership');
  if (ownership !== 'first_party' && ownership !== 'third_party') errors.ownership = DECLARATION_MESSAGES.ownership;

  const address: Record<string, string> = {};
  for (const f of ADDRESS_FIELDS) {
    const value = v(f);
    if (value !== undefined) address[f] = value;
  }
  const country = v('countryCode')?.toUpperCase();
  if (country !== undefined && !isIsoCountryCode(country)) errors.countryCode = DECLARATION_MESSAGES.countryUnknown;
  else if (country === undefined && Object.keys(address).length > 0)
    errors.countryCode = DECLARATION_MESSAGES.countryRequired;

  const walletId = v('walletId');
  const walletName = v('walletName');
  if (walletId !== undefined && walletName !== undefined) errors.walletName = DECLARATION_MESSAGES.walletBoth;
  else if (walletId !== undefined && !KNOWN_WALLET_ID.test(walletId)) errors.walletId = DECLARATION_MESSAGES.walletId;

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const documentNumber = v('documentNumber');
  const declaration: CounterpartyDeclaration = {
    entityType: entityType as 'individual' | 'entity',
    legalName: legalName!,
    ownership: ownership as 'first_party' | 'third_party',
    ...(documentNumber !== undefined ? { documentNumber } : {}),
    ...(country !== undefined ? { address: { countryCode: country, ...address } } : {}),
    ...(walletId !== undefined
      ? { wallet: { id: walletId } }
      : walletName !== undefined
        ? { wallet: { name: walletName } }
        : {}),
  };
  return {
    ok: true,
    value: {
      transactionId: transactionId!,
      declaration,
      createsUnverifiedWallet: walletId === undefined && walletName !== undefined,
    },
  };
}
