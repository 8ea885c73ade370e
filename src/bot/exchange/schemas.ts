// Zod schemas of every body, from api-reference.md: "no extra properties" -> strictObject, "open" ->
// looseObject, neither -> object, "not shown" -> looseObject with named fields optional.
// The sandbox answers with these same schemas: one protocol, not two.
import { z } from 'zod';
import { gt } from '../domain/money.js';
import { KNOWN_WALLET_ID } from '../ports/exchange-port.js';

export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string');
/** A price: a decimal above zero. A zero or negative price from the exchange is malformed, never traded on. */
export const priceString = decimalString.refine((v) => gt(v, '0'), 'expected a price above zero');
/** Any 8-4-4-4-12 hex id; the exchange does not promise a UUID version. */
export const uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const int = z.number().int();
const optNullStr = z.string().nullable().optional();

// ---- crypto withdrawal -----------------------------------------------------------------------

export const networkRef = z.looseObject({
  uuid: uuid.optional(),
  name: z.string().optional(),
  network_code: z.string().optional(),
});

export const assetRef = z.looseObject({
  id: int.optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  icon_url: z.string().nullable().optional(),
  asset_type: z.string().optional(),
});

/** `crypto_currency` inside withdrawals (open; required: id, name, code, network, asset). */
export const cryptoCurrencyRef = z.looseObject({
  id: int,
  name: z.string(),
  code: z.string(),
  minimum_sell: decimalString.optional(),
  precision: int.optional(),
  allow_multiple_user_addresses: z.boolean().optional(),
  icon: z.string().optional(),
  network_id: z.string().optional(),
  has_address_tag: z.boolean().optional(),
  network: networkRef,
  asset: assetRef,
});

export const walletIdentity = z.object({
  id: uuid.optional(),
  entity_name: z.string().optional(),
  entity_type: z.string().optional(),
  ownership: z.string().optional(),
  additional_info_provided: z.boolean().optional(),
});

export const cryptoWalletRef = z.object({
  id: uuid.optional(),
  name: z.string().optional(),
  type: z.string().optional(),
});

/** `address_book_address` inside withdrawals (open). */
export const addressBookAddressRef = z.looseObject({
  id: uuid.optional(),
  label: z.string().optional(),
  created_at: int.optional(),
  address: z.string().optional(),
  address_tag: optNullStr,
  status: z.string().optional(),
  display_status: optNullStr,
  crypto_wallet: cryptoWalletRef.nullable().optional(),
  wallet_identity: walletIdentity.nullable().optional(),
  crypto_currency_networks: z.array(networkRef).optional(),
});

const withdrawalCommon = {
  id: uuid,
  amount: decimalString,
  created_at: int,
  status: z.string(),
  memo: optNullStr,
  travel_rule_status: optNullStr,
  pending_reason: optNullStr,
  recipient_fullname: optNullStr,
  link_explorer: optNullStr,
  crypto_currency: cryptoCurrencyRef,
  note: optNullStr,
  invoice_downloadable: z.boolean(),
  transaction: z.object({ uuid }),
};

/** Crypto withdrawal as returned by create (201) and get (200). */
export const cryptoWithdrawal = z.object({
  ...withdrawalCommon,
  address: z.string(),
  total_amount: decimalString,
  fee: decimalString.nullable(),
  transaction_hash: z.string().nullable(),
  address_book_address: addressBookAddressRef.nullable(),
});
export type CryptoWithdrawal = z.infer<typeof cryptoWithdrawal>;

/** Crypto withdrawal as a list item: fewer required fields. */
export const cryptoWithdrawalListItem = z.object({
  ...withdrawalCommon,
  address: z.string().optional(),
  total_amount: decimalString.optional(),
  fee: decimalString.nullable().optional(),
  transaction_hash: optNullStr,
  address_book_address: addressBookAddressRef,
  // Not among the reference's list fields, but kept when the exchange lists it: the surest match.
  request_id: optNullStr,
});
export type CryptoWithdrawalListItem = z.infer<typeof cryptoWithdrawalListItem>;

export const createCryptoWithdrawalBody = z.strictObject({
  crypto_currency_id: int,
  amount: decimalString,
  address_book_address_id: uuid,
  request_id: z.string().optional(),
  transaction_purpose: z.string().optional(),
  note: z.string().optional(),
});
export type CreateCryptoWithdrawalBody = z.infer<typeof createCryptoWithdrawalBody>;

// ---- crypto deposit --------------------------------------------------------------------------

export const cryptoDeposit = z.object({
  id: uuid,
  to_address: z.string().optional(),
  amount: z.string().optional(),
  created_at: int,
  transaction_hash: z.string().optional(),
  status: z.string(),
  travel_rule_status: z.string().optional(),
  link_explorer: z.string().optional(),
  invoice_downloadable: z.boolean(),
  transaction: z.object({ uuid }),
  crypto_currency: z.looseObject({ id: int, name: z.string(), code: z.string() }).optional(),
});
export type CryptoDeposit = z.infer<typeof cryptoDeposit>;

// ---- balances --------------------------------------------------------------------------------

export const balance = z.strictObject({
  currency: z.string(),
  regular: decimalString,
  locked: decimalString,
  locked_balance: z.strictObject({ orders: decimalString, alternative_products: decimalString }),
});
export type Balance = z.infer<typeof balance>;

// ---- bank accounts ---------------------------------------------------------------------------

export const bankAccount = z.object({
  id: int,
  currency: z.string().nullable().optional(),
  account_number: z.string(),
  beneficiary_name: z.string(),
  last_used_at: int.nullable().optional(),
  verified: z.boolean().optional(),
  bank: z
    .object({
      name: optNullStr,
      swift_code: optNullStr,
      bic_code: optNullStr,
      branch_name: optNullStr,
      branch_code: optNullStr,
      address: optNullStr,
    })
    .nullable()
    .optional(),
});
export type BankAccount = z.infer<typeof bankAccount>;

// ---- known wallets ---------------------------------------------------------------------------

/** The pattern is the port's (ports/exchange-port.ts), one definition for the form check and the wire. */
export const knownWalletId = z.string().regex(KNOWN_WALLET_ID, 'expected a lowercase wallet id');

export const knownWallet = z.strictObject({
  id: knownWalletId,
  type: z.enum(['private', 'hosted']),
  name: z.string(),
  risk_level: z.enum(['low', 'medium', 'high']).optional(),
});
export type KnownWallet = z.infer<typeof knownWallet>;

// ---- fiat ------------------------------------------------------------------------------------

export const fiatWithdrawalFee = z.strictObject({
  currency: z.string(),
  fee: decimalString,
  asset: z.object({
    id: int,
    name: z.string(),
    symbol: z.string(),
    icon_url: z.string().optional(),
    asset_type: z.string(),
  }),
});
export type FiatWithdrawalFee = z.infer<typeof fiatWithdrawalFee>;

export const fiatWithdrawalLimit = z.strictObject({
  currency: z.string(),
  minimum_withdrawal_amount: decimalString,
  maximum_withdrawal_amount: decimalString,
});
export type FiatWithdrawalLimit = z.infer<typeof fiatWithdrawalLimit>;

const fiatWithdrawalFields = {
  currency: z.string().optional(),
  amount: z.string().optional(),
  status: z.string().optional(),
  bank_reference: optNullStr,
  withdrawal_fee: optNullStr,
  created_at: z.union([z.string(), int]).optional(),
  invoice_downloadable: z.boolean().optional(),
  transaction: z.object({ uuid }).nullable().optional(),
  /** Not shown for fiat: listed by the sandbox as assumptions.ts chose (FIAT_WITHDRAWAL_NOTE_LISTED). */
  note: optNullStr,
};

/** Fiat withdrawal create response: the reference lists fields, not which are required. */
export const fiatWithdrawal = z.looseObject({ id: int, ...fiatWithdrawalFields, status: z.string() });
export type FiatWithdrawal = z.infer<typeof fiatWithdrawal>;

/** Fiat withdrawal list item: item fields not shown; the create fields typed where present. */
export const fiatWithdrawalListItem = z.looseObject({ id: int.optional(), ...fiatWithdrawalFields });
export type FiatWithdrawalListItem = z.infer<typeof fiatWithdrawalListItem>;

/** Fiat withdrawal create body: not shown; see assumptions.ts FIAT_WITHDRAWAL_BODY_FIELDS. */
export const createFiatWithdrawalBody = z.strictObject({
  bank_account_id: int,
  currency: z.string(),
  amount: decimalString,
  request_id: z.string().optional(),
  note: z.string().optional(),
});
export type CreateFiatWithdrawalBody = z.infer<typeof createFiatWithdrawalBody>;

/** Fiat deposit: fields not shown. */
export const fiatDeposit = z.looseObject({
  id: z.union([z.string(), int]).optional(),
  currency: z.string().optional(),
  amount: z.string().optional(),
  status: z.string().optional(),
  created_at: z.union([z.string(), int]).optional(),
});
export type FiatDeposit = z.infer<typeof fiatDeposit>;

// ---- counterparty info -----------------------------------------------------------------------

export const counterpartyAddress = z.strictObject({
  country_code: z.string().regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 country code'),
  address1: z.string().optional(),
  address2: z.string().optional(),
  postcode: z.string().optional(),
  district: z.string().optional(),
  region: z.string().optional(),
});

export const counterpartyInfoBody = z.strictObject({
  wallet_identity_attributes: z.strictObject({
    entity_type: z.enum(['individual', 'entity']),
    entity_name: z.string().min(1),
    ownership: z.enum(['first_party', 'third_party']),
    entity_identity_document_number: z.string().optional(),
    address_attributes: counterpartyAddress.optional(),
  }),
  crypto_wallet_attributes: z
    .strictObject({ id: z.string().min(1).optional(), name: z.string().min(1).optional() })
    .refine((w) => w.id !== undefined || w.name !== undefined, 'crypto_wallet_attributes needs an id or a name')
    .optional(),
});
export type CounterpartyInfoBody = z.infer<typeof counterpartyInfoBody>;

/** 201 body of the counterparty operation: fields not shown. */
export const counterpartyInfoResult = z.looseObject({});

// ---- lookups (workflow guide) ----------------------------------------------------------------

export const network = z.looseObject({ uuid, name: z.string().optional(), network_code: z.string().optional() });
export type Network = z.infer<typeof network>;

/** Crypto currency entry: one per asset and network. */
export const cryptoCurrencyEntry = cryptoCurrencyRef.extend({
  network_id: z.string(),
  withdrawal_fee: decimalString,
  minimum_withdrawal: decimalString.optional(),
});
export type CryptoCurrencyEntry = z.infer<typeof cryptoCurrencyEntry>;

export const addressBookAddress = z.looseObject({
  id: uuid,
  label: z.string().optional(),
  address: z.string(),
  address_tag: optNullStr,
  status: z.string(),
  display_status: optNullStr,
  crypto_currency_networks: z.array(networkRef),
  wallet_identity: walletIdentity.nullable().optional(),
  crypto_wallet: cryptoWalletRef.nullable().optional(),
  withdrawal_cooldown_until: int.nullable().optional(),
  created_at: int.optional(),
});
export type AddressBookAddress = z.infer<typeof addressBookAddress>;

// ---- quotes and orders -----------------------------------------------------------------------

export const createQuoteBody = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, 'expected BASE-COUNTER'),
  side: z.enum(['buy', 'sell']),
  quantity: decimalString,
  currency: z.string().optional(),
  payment_method: z.string(),
});
export type CreateQuoteBody = z.infer<typeof createQuoteBody>;

export const quote = z.looseObject({
  quote_id: z.string(),
  locked_price: priceString,
  expires_at: int,
});
export type Quote = z.infer<typeof quote>;

export const createOrderBody = z.strictObject({
  execution_type: z.literal('rfq'),
  order_quote_id: z.string(),
  client_order_id: z.string().optional(),
});
export type CreateOrderBody = z.infer<typeof createOrderBody>;

export const order = z.looseObject({
  id: z.union([z.string(), int]),
  status: z.string(),
  client_order_id: z.string().nullable().optional(),
  order_receipt_id: z.string().nullable().optional(),
  price: priceString.nullable().optional(),
  fee: decimalString.nullable().optional(),
  fee_currency: z.string().nullable().optional(),
  net_amount: decimalString.nullable().optional(),
  received_currency: z.string().nullable().optional(),
  execution_type: z.string().optional(),
  expires_at: int.nullable().optional(),
  cancel_reason: z.string().nullable().optional(),
  created_at: int.optional(),
});
export type Order = z.infer<typeof order>;

export const spotPrice = z.looseObject({
  symbol: z.string().optional(),
  buy_price: priceString,
  sell_price: priceString,
});
export type SpotPrice = z.infer<typeof spotPrice>;

// ---- errors ----------------------------------------------------------------------------------

export const errorBody = z.object({ errors: z.array(z.looseObject({ message: z.string() })) });
export type ErrorBody = z.infer<typeof errorBody>;
