// The declaration modal's inputs and the use case's fields one to one, so errors land on their input and a
// form can be shown again as filled.
import type { SubmittedValues } from '../kit/refill-form.js';
import type { DeclarationErrors, DeclarationField } from '../../engine/compliance/declaration.js';
import { INPUT } from '../kit/slack-ids.js';

/** Use-case field -> the modal input (block_id and action_id alike, see kit/slack-ids.ts). */
export const FIELD_INPUT: Readonly<Record<DeclarationField, string>> = {
  transactionId: INPUT.cpTransaction,
  entityType: INPUT.cpEntityType,
  legalName: INPUT.cpLegalName,
  ownership: INPUT.cpOwnership,
  documentNumber: INPUT.cpDocumentNumber,
  address1: INPUT.cpAddress1,
  address2: INPUT.cpAddress2,
  postcode: INPUT.cpPostcode,
  district: INPUT.cpDistrict,
  region: INPUT.cpRegion,
  countryCode: INPUT.cpCountryCode,
  walletId: INPUT.cpWallet,
  walletName: INPUT.cpWalletName,
};

/** A field the view does not show comes back in `elsewhere`: Slack refuses errors on blocks not in the view. */
export function errorsByInput(
  errors: DeclarationErrors,
  shown: (blockId: string) => boolean,
): { byInput: Record<string, string>; elsewhere: string[] } {
  const byInput: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(errors) as [DeclarationField, string][]) {
    const blockId = FIELD_INPUT[field];
    if (shown(blockId)) byInput[blockId] = message;
    else elsewhere.push(message);
  }
  return { byInput, elsewhere };
}

/** The chosen known wallet's label (the option text), for the confirmation; undefined when none. */
export function walletLabel(values: SubmittedValues | undefined): string | undefined {
  return values?.[INPUT.cpWallet]?.[INPUT.cpWallet]?.selected_option?.text?.text ?? undefined;
}
