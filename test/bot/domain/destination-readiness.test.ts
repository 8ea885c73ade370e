import { describe, expect, it } from 'vitest';
import { destinationBar, destinationBarText } from '../../../src/bot/domain/destination-readiness.js';

const now = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('destinationBar: verified and out of its cooldown', () => {
  it.each([
    ['unverified, no cooldown', { verified: false }, { reason: 'unverified' }],
    [
      'unverified and cooling down: verification is said first',
      { verified: false, cooldownUntil: now + 60_000 },
      { reason: 'unverified' },
    ],
    ['verified, no cooldown (absent)', { verified: true }, undefined],
    ['verified, no cooldown (null)', { verified: true, cooldownUntil: null }, undefined],
    ['cooldown ended one ms ago', { verified: true, cooldownUntil: now - 1 }, undefined],
    ['cooldown ending exactly now is over', { verified: true, cooldownUntil: now }, undefined],
    ['cooldown ending in one ms', { verified: true, cooldownUntil: now + 1 }, { reason: 'cooldown', until: now + 1 }],
  ])('%s', (_name, facts, expected) => {
    expect(destinationBar(facts, now)).toEqual(expected);
  });

  it('has one wording, named for where it is said', () => {
    expect(destinationBarText({ reason: 'unverified' }, 'This address')).toBe(
      "This address is not verified yet. Verify it in the exchange's mobile app.",
    );
    expect(destinationBarText({ reason: 'cooldown', until: now + 1 }, 'The destination "Cold"')).toBe(
      'The destination "Cold" is in its withdrawal cooldown.',
    );
    expect(destinationBarText({ reason: 'cooldown', until: now + 1 }, 'This address', '2 h 5 min')).toBe(
      'This address is in its withdrawal cooldown for another 2 h 5 min.',
    );
  });
});
