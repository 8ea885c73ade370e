/**
 * The declaration form's rules, pure: country code rules, nested objects only when filled, the
 * wallet part, and that every accepted form builds a body the reference's schema accepts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISO_COUNTRY_CODES } from '../../../../src/bot/engine/compliance/country-codes.js';
import {
  checkDeclaration,
  DECLARATION_MESSAGES,
  type CheckedDeclaration,
  type DeclarationForm,
} from '../../../../src/bot/engine/compliance/declaration.js';
import {
  recipientDetailsAdvice,
  RECIPIENT_DETAILS_ADVICE,
} from '../../../../src/bot/engine/execution/recipient-advice.js';
import { counterpartyBody } from '../../../../src/bot/exchange/adapter/counterparty-body.js';
import { counterpartyInfoBody } from '../../../../src/bot/exchange/schemas.js';

const TX = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const base: DeclarationForm = {
  transactionId: TX,
  entityType: 'entity',
  legalName: 'Acme Pte Ltd',
  ownership: 'first_party',
};

/** The body the exchange port sends for a checked declaration. */
function bodyOf(checked: CheckedDeclaration) {
  return counterpartyBody(checked.declaration);
}

function errorsOf(form: DeclarationForm) {
  const r = checkDeclaration(form);
  return r.ok ? {} : r.errors;
}

describe('country code rules', () => {
  it('requires the country code once any address field is filled, whichever it is', () => {
    for (const field of ['address1', 'address2', 'postcode', 'district', 'region'] as const) {
      expect(errorsOf({ ...base, [field]: 'x' })).toEqual({ countryCode: DECLARATION_MESSAGES.countryRequired });
      const ok = checkDeclaration({ ...base, [field]: ' x ', countryCode: 'SG' });
      expect(ok.ok && bodyOf(ok.value).wallet_identity_attributes.address_attributes).toEqual({
        country_code: 'SG',
        [field]: 'x',
      });
    }
  });

  it('accepts assigned ISO 3166-1 alpha-2 codes in any letter case, and refuses reserved or made-up ones', () => {
    const r = checkDeclaration({ ...base, countryCode: ' gb ' });
    expect(r.ok && bodyOf(r.value).wallet_identity_attributes.address_attributes).toEqual({ country_code: 'GB' });
    for (const bad of ['UK', 'EU', 'XK', 'ZZ', 'S', 'SGP', '12', 'S G'])
      expect(errorsOf({ ...base, countryCode: bad })).toEqual({ countryCode: DECLARATION_MESSAGES.countryUnknown });
  });

  it('holds exactly the 249 assigned codes, every one a region the platform knows by name', () => {
    expect(ISO_COUNTRY_CODES.size).toBe(249);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    for (const code of ISO_COUNTRY_CODES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(names.of(code)).not.toBe(code);
    }
    for (const code of ['SG', 'US', 'GB', 'DE', 'JP', 'HK', 'AE', 'CH', 'SS', 'AX'])
      expect(ISO_COUNTRY_CODES.has(code)).toBe(true);
  });

  it('sends no address_attributes when no address field and no country is filled (blank counts as empty)', () => {
    const r = checkDeclaration({ ...base, address1: '   ', countryCode: '' });
    expect(r.ok && bodyOf(r.value)).toStrictEqual({
      wallet_identity_attributes: { entity_type: 'entity', entity_name: 'Acme Pte Ltd', ownership: 'first_party' },
    });
  });
});

describe('the wallet part', () => {
  it('sends the listed wallet id, or the typed name, never both and never empty', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const listed = checkDeclaration({ ...base, walletId: id });
    expect(listed.ok && listed.value).toMatchObject({ createsUnverifiedWallet: false });
    expect(listed.ok && bodyOf(listed.value)).toMatchObject({ crypto_wallet_attributes: { id } });
    const typed = checkDeclaration({ ...base, walletName: '  My cold storage ' });
    expect(typed.ok && typed.value).toMatchObject({ createsUnverifiedWallet: true });
    expect(typed.ok && bodyOf(typed.value)).toMatchObject({ crypto_wallet_attributes: { name: 'My cold storage' } });
    expect(errorsOf({ ...base, walletId: id, walletName: 'n' })).toEqual({
      walletName: DECLARATION_MESSAGES.walletBoth,
    });
    expect(errorsOf({ ...base, walletId: 'not a wallet' })).toEqual({ walletId: DECLARATION_MESSAGES.walletId });
    const none = checkDeclaration({ ...base, walletName: ' ' });
    expect(none.ok && 'crypto_wallet_attributes' in bodyOf(none.value)).toBe(false);
  });
});

describe('required fields', () => {
  it('names every missing or wrong field at once', () => {
    expect(Object.keys(errorsOf({})).sort()).toEqual(['entityType', 'legalName', 'ownership', 'transactionId']);
    expect(errorsOf({ ...base, entityType: 'company', ownership: 'mine' })).toEqual({
      entityType: DECLARATION_MESSAGES.entityType,
      ownership: DECLARATION_MESSAGES.ownership,
    });
    expect(errorsOf({ ...base, transactionId: '1234' })).toEqual({
      transactionId: DECLARATION_MESSAGES.transactionShape,
    });
  });

  it('builds, for any accepted form, a body the reference schema accepts unchanged, with no empty nested object', () => {
    const text = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });
    const form = fc.record({
      entityType: fc.constantFrom('individual', 'entity', 'other', undefined),
      legalName: text,
      ownership: fc.constantFrom('first_party', 'third_party', undefined),
      documentNumber: text,
      address1: text,
      address2: text,
      postcode: text,
      district: text,
      region: text,
      countryCode: fc.constantFrom('SG', 'us', 'UK', '', undefined),
      walletId: fc.constantFrom('0f8fad5b-d9cb-469f-a165-70867728950e', '', undefined),
      walletName: text,
    });
    fc.assert(
      fc.property(form, (f) => {
        const r = checkDeclaration({ transactionId: TX, ...f });
        if (!r.ok) return;
        const body = bodyOf(r.value);
        expect(counterpartyInfoBody.parse(body)).toStrictEqual(body);
        const w = body.wallet_identity_attributes;
        if (w.address_attributes) expect(w.address_attributes.country_code).toMatch(/^[A-Z]{2}$/);
        for (const v of Object.values(w.address_attributes ?? {})) expect(v.trim()).not.toBe('');
        const cw = body.crypto_wallet_attributes;
        if (cw) expect(Object.keys(cw)).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('recipientDetailsAdvice', () => {
  it('advises on refusals about missing recipient or VASP details, and stays silent on others', () => {
    for (const m of [
      'Recipient information missing for address "Cold": complete the recipient (Travel Rule) details of the saved address in the mobile app',
      'VASP information is required',
      'Beneficiary details incomplete',
      'travel_rule: wallet identity not provided',
    ]) {
      expect(recipientDetailsAdvice(m)).toBe(RECIPIENT_DETAILS_ADVICE);
    }
    for (const m of [
      'Address "Cold" is not verified (status pending)',
      'Insufficient balance',
      'Recipient address is on the wrong network',
      '',
    ]) {
      expect(recipientDetailsAdvice(m)).toBeUndefined();
    }
  });
});
