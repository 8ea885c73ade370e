import { describe, expect, it } from 'vitest';
import { paymentMethodText } from '../../../../src/bot/slack/kit/format.js';

describe('paymentMethodText', () => {
  it('reads the known method in words and shows any other as sent', () => {
    expect(paymentMethodText('user_balance')).toBe('Account balance');
    expect(paymentMethodText('card')).toBe('card');
  });

  it("never answers with an object's own property for a typed name", () => {
    for (const name of ['valueOf', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(paymentMethodText(name)).toBe(name);
  });
});
