/**
 * Every command name, action_id, block_id and callback_id of the app, in one place: listeners,
 * builders and tests import them from here, never spell them out.
 *
 * Modal inputs (INPUT) use one name as both block_id and action_id: each input block holds one
 * element, so `state.values[INPUT.x][INPUT.x]` is the field's value.
 */

/** Slash commands; the same set as manifests/manifest.json (a test keeps them equal). */
export const COMMAND = {
  withdraw: '/withdraw',
  trade: '/trade',
  balances: '/balances',
  desk: '/desk',
  counterparty: '/counterparty',
} as const;
export type CommandName = (typeof COMMAND)[keyof typeof COMMAND];
/** Commands with `should_escape` on in the manifest: Slack sends a picked person as `<@U…|name>` (/desk delegate, /desk 2fa reset). */
export const ESCAPED_COMMANDS: readonly CommandName[] = [COMMAND.desk];

/** Buttons and interactive elements outside modal inputs. */
export const ACTION = {
  approve: 'approval_approve',
  reject: 'approval_reject',
  cancel: 'approval_cancel',
  /** "More" under a listing; value: the next page (see listings/listing-lines.ts). */
  listMore: 'list_more',
  withdrawChooseCrypto: 'withdraw_choose_crypto',
  withdrawChooseFiat: 'withdraw_choose_fiat',
  tradeRefreshQuote: 'trade_refresh_quote',
  declareCounterparty: 'deposit_declare_counterparty',
  // An unknown outcome a person settles; values from approvals/person-question.ts.
  lookAgain: 'unknown_look_again',
  sendAgain: 'unknown_send_again',
  markNotSent: 'unknown_mark_not_sent',
  markNotPlaced: 'unknown_mark_not_placed',
  chooseCandidate: 'unknown_choose_candidate',
  noneOfThese: 'unknown_none_of_these',
} as const;

/** Modal input fields: each value is both the block_id and the element's action_id. */
export const INPUT = {
  // crypto withdrawal
  withdrawEntry: 'withdraw_entry',
  withdrawDestination: 'withdraw_destination',
  withdrawAmount: 'withdraw_amount',
  withdrawNote: 'withdraw_note',
  withdrawPurpose: 'withdraw_purpose',
  // fiat withdrawal
  fiatCurrency: 'fiat_currency',
  fiatBank: 'fiat_bank',
  fiatAmount: 'fiat_amount',
  // trade
  tradePair: 'trade_pair',
  tradeSide: 'trade_side',
  tradeQuantity: 'trade_quantity',
  tradeQuantityCurrency: 'trade_quantity_currency',
  tradePaymentMethod: 'trade_payment_method',
  tradeLimitPrice: 'trade_limit_price',
  tradeSlippage: 'trade_slippage',
  // reject
  rejectReason: 'reject_reason',
  // a person's settlement on an unknown outcome
  settleChecked: 'decision_checked',
  // counterparty declaration (issue 6)
  cpTransaction: 'cp_transaction',
  cpEntityType: 'cp_entity_type',
  cpLegalName: 'cp_legal_name',
  cpOwnership: 'cp_ownership',
  cpDocumentNumber: 'cp_document_number',
  cpAddress1: 'cp_address1',
  cpAddress2: 'cp_address2',
  cpPostcode: 'cp_postcode',
  cpDistrict: 'cp_district',
  cpRegion: 'cp_region',
  cpCountryCode: 'cp_country_code',
  /** external_select over the known wallets (options requests go to the same endpoint). */
  cpWallet: 'cp_wallet',
  cpWalletName: 'cp_wallet_name',
  // step-up: the code of the authenticator being enrolled or used, and the current one's when replacing it
  stepUpCode: 'step_up_code',
  stepUpCurrentCode: 'step_up_current_code',
} as const;
export type InputId = (typeof INPUT)[keyof typeof INPUT];

/** Non-input blocks that listeners or tests look for. */
export const BLOCK = {
  sandboxBanner: 'sandbox_banner',
  /** The enrollment modal's otpauth:// URI (the local desk draws it as a QR code). */
  stepUpUri: 'step_up_uri',
  approvalSummary: 'approval_summary',
  approvalProgress: 'approval_progress',
  approvalStatus: 'approval_status',
  approvalActions: 'approval_actions',
  approvalOutcome: 'approval_outcome',
  personQuestion: 'unknown_question',
  personActions: 'unknown_actions',
  settlements: 'unknown_decisions',
  listMore: 'list_more',
  withdrawChoice: 'withdraw_choice',
  withdrawSummary: 'withdraw_summary',
  tradeQuote: 'trade_quote',
  cpWalletWarning: 'cp_wallet_warning',
} as const;

/** Modal callback_ids. */
export const CALLBACK = {
  withdrawChoice: 'withdraw_choice',
  withdrawLoading: 'withdraw_loading',
  withdrawCrypto: 'withdraw_crypto',
  withdrawFiat: 'withdraw_fiat',
  tradeLoading: 'trade_loading',
  trade: 'trade',
  rejectReason: 'reject_reason',
  settle: 'unknown_decision',
  counterparty: 'counterparty',
  /** A modal that only tells something (an error while loading); nothing to submit. */
  notice: 'notice',
  // step-up (issue 24): enrolling an authenticator, and the code asked on an approval
  stepUpEnroll: 'step_up_enroll',
  stepUpApprove: 'step_up_approve',
} as const;

/**
 * Destination and bank selects change their options when the asset or currency changes: a
 * block_id per choice keeps Slack from carrying a selection over to a list it is not in.
 */
export const dynamicBlockId = {
  withdrawDestination: (entryId: number | string): string => `${INPUT.withdrawDestination}:${entryId}`,
  fiatBank: (currency: string): string => `${INPUT.fiatBank}:${currency}`,
};

/** The base of a block_id made by dynamicBlockId (the part before ":"). */
export function baseBlockId(blockId: string): string {
  const i = blockId.indexOf(':');
  return i === -1 ? blockId : blockId.slice(0, i);
}
