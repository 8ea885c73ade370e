/** The counterparty modal's inputs read into the use case's check, each problem under its input. */
import { describe, expect, it } from 'vitest';
import { checkDeclaration } from '../../../../src/bot/engine/compliance/declaration.js';
import { counterpartyBody } from '../../../../src/bot/exchange/adapter/counterparty-body.js';
import { errorsByInput } from '../../../../src/bot/slack/compliance/form-fields.js';
import { counterpartyValues } from '../../../../src/bot/slack/compliance/counterparty-form.js';
import type { StateValues } from '../../../../src/bot/slack/kit/view-state.js';
import { INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';

describe("counterparty modal -> the use case's check (app/compliance/declaration.ts)", () => {
  const TX = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  const text = (value: string) => ({ type: 'plain_text_input', value });
  const choice = (value: string) => ({ type: 'radio_buttons', selected_option: { value } });
  const filled = (extra: Record<string, Record<string, object>> = {}) =>
    ({
      [INPUT.cpEntityType]: { [INPUT.cpEntityType]: choice('individual') },
      [INPUT.cpLegalName]: { [INPUT.cpLegalName]: text(' Jane Tan ') },
      [INPUT.cpOwnership]: { [INPUT.cpOwnership]: choice('third_party') },
      ...extra,
    }) as StateValues;
  const check = (values: StateValues, transactionId?: string) =>
    checkDeclaration({ ...counterpartyValues(values), ...(transactionId ? { transactionId } : {}) });
  const all = () => true;

  it('reads every input into the reference body: nothing empty, nested objects only when filled', () => {
    const r = check(
      filled({
        [INPUT.cpCountryCode]: { [INPUT.cpCountryCode]: text('sg') },
        [INPUT.cpAddress1]: { [INPUT.cpAddress1]: text('1 Raffles Place') },
      }),
      TX,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        transactionId: TX,
        declaration: {
          entityType: 'individual',
          legalName: 'Jane Tan',
          ownership: 'third_party',
          address: { countryCode: 'SG', address1: '1 Raffles Place' },
        },
        createsUnverifiedWallet: false,
      },
    });
    // And the port sends it as exactly the reference's body.
    if (r.ok) {
      expect(counterpartyBody(r.value.declaration)).toEqual({
        wallet_identity_attributes: {
          entity_type: 'individual',
          entity_name: 'Jane Tan',
          ownership: 'third_party',
          address_attributes: { country_code: 'SG', address1: '1 Raffles Place' },
        },
      });
    }
  });

  it('puts each problem under the modal input at fault (block ids from ids.ts)', () => {
    const r = check(
      filled({
        [INPUT.cpRegion]: { [INPUT.cpRegion]: text('Central') },
        [INPUT.cpWalletName]: { [INPUT.cpWalletName]: text('n') },
        [INPUT.cpWallet]: { [INPUT.cpWallet]: { type: 'external_select', selected_option: { value: 'w' } } },
      }),
      TX,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorsByInput(r.errors, all).byInput).toEqual({
      [INPUT.cpCountryCode]: 'The country code is required once any address field is filled.',
      [INPUT.cpWalletName]: 'Choose a listed wallet or type a name, not both.',
    });
    const empty = check({}, TX);
    expect(empty.ok === false && Object.keys(errorsByInput(empty.errors, all).byInput).sort()).toEqual(
      [INPUT.cpEntityType, INPUT.cpLegalName, INPUT.cpOwnership].sort(),
    );
  });

  it('a typed transaction id is checked too; when the modal does not show it, the error goes elsewhere', () => {
    const r = check(filled({ [INPUT.cpTransaction]: { [INPUT.cpTransaction]: text('abc') } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorsByInput(r.errors, all).byInput[INPUT.cpTransaction]).toContain('UUID');
    expect(errorsByInput(r.errors, (id) => id !== INPUT.cpTransaction)).toEqual({
      byInput: {},
      elsewhere: [expect.stringContaining('UUID')],
    });
  });
});
