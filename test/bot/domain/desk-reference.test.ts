/** The desk reference in a withdrawal's note: made, frozen, renumbered per attempt and read back. */
import { describe, expect, it } from 'vitest';
import {
  EXCHANGE_NOTE_TEXT_MAX,
  exchangeNoteOf,
  firstExchangeNote,
  readDeskReference,
  withExchangeNote,
} from '../../../src/bot/domain/desk-reference.js';
import type { Snapshot } from '../../../src/bot/domain/request.js';
import { withdrawalSnapshot } from '../engine/support/snapshots.js';

const crypto: Snapshot = { ...withdrawalSnapshot, note: 'Payroll\nMarch  `run`' };

describe('the desk reference', () => {
  it('ends the note, on one line, without backticks or invisible characters; alone when there is no note', () => {
    expect(firstExchangeNote('Payroll\nMarch  `run`', 'R6EYET')).toBe("Payroll March 'run' · desk R6EYET-1");
    expect(firstExchangeNote('pay \u202E0001\u202C BTC\u200B', 'R6EYET')).toBe('pay 0001 BTC · desk R6EYET-1');
    expect(firstExchangeNote(null, 'R6EYET')).toBe('desk R6EYET-1');
    expect(firstExchangeNote('   ', 'R6EYET')).toBe('desk R6EYET-1');
  });

  it("keeps at most EXCHANGE_NOTE_TEXT_MAX characters of the requester's note, so the reference is never cut off", () => {
    const note = firstExchangeNote('x'.repeat(1_000), 'R6EYET');
    expect(note.endsWith('… · desk R6EYET-1')).toBe(true);
    expect(Array.from(note.slice(0, note.indexOf(' · desk'))).length).toBe(EXCHANGE_NOTE_TEXT_MAX);
  });

  it('is frozen into a withdrawal snapshot (not a trade or a removal), and each attempt carries its own number', () => {
    const frozen = withExchangeNote(crypto, 'R6EYET');
    expect(frozen).toMatchObject({ exchangeNote: "Payroll March 'run' · desk R6EYET-1" });
    expect(exchangeNoteOf(frozen, 1)).toBe("Payroll March 'run' · desk R6EYET-1");
    expect(exchangeNoteOf(frozen, 2)).toBe("Payroll March 'run' · desk R6EYET-2");
    const removal: Snapshot = {
      kind: 'bank_account_removal',
      bankAccount: { id: 1, currency: 'USD', display: 'DBS' },
      note: 'x',
    };
    expect(withExchangeNote(removal, 'R6EYET')).toBe(removal);
  });

  it('a request made before the reference sends what its approvers saw: a crypto withdrawal its note, a fiat one none', () => {
    expect(exchangeNoteOf(crypto, 1)).toBe(crypto.kind === 'crypto_withdrawal' ? crypto.note : null);
    const fiat: Snapshot = {
      kind: 'fiat_withdrawal',
      currency: 'USD',
      bankAccount: { id: 1, currency: 'USD', display: 'DBS' },
      amount: '100',
      fee: '20',
      total: '120',
      note: 'x',
    };
    expect(exchangeNoteOf(fiat, 1)).toBeNull();
  });

  it("is read only at the very end of a note: a reference mentioned inside someone's text is none", () => {
    expect(readDeskReference('Payroll · desk R6EYET-12')).toEqual({ requestId: 'R6EYET', attempt: 12 });
    expect(readDeskReference('desk R00001-1')).toEqual({ requestId: 'R00001', attempt: 1 });
    expect(readDeskReference('refund of desk R6EYET-1 to Sam')).toBeNull();
    expect(readDeskReference('desk R6EYET-0')).toBeNull();
    expect(readDeskReference('deskR6EYET-1')).toBeNull();
    expect(readDeskReference(null)).toBeNull();
  });
});
