import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../../src/bot/domain/request.js';
import { stepUpCurrencies, stepUpRequired } from '../../../../src/bot/domain/step-up/required.js';
import { valuationAt } from '../../../../src/bot/domain/valuation.js';

const withdrawal = (valueUsd?: string, stepUp?: true) =>
  ({
    kind: 'fiat_withdrawal',
    currency: 'USD',
    amount: valueUsd ?? '10',
    ...(valueUsd === undefined
      ? {}
      : { valuations: [valuationAt({ amount: valueUsd, currency: 'USD' }, 'USD', '1', 0)] }),
    ...(stepUp ? { rule: { name: 'large', hash: 'h', require: [], stepUp } } : {}),
  }) as unknown as Snapshot;
const removal = { kind: 'bank_account_removal' } as unknown as Snapshot;

describe('stepUpRequired', () => {
  const at = { atLeastUsd: '100000' };
  it.each([
    ['just under the threshold', withdrawal('99999.99'), false],
    ['at the threshold', withdrawal('100000'), true],
    ['above it', withdrawal('250000'), true],
    ['never priced in USD: taken as large', withdrawal(), true],
    ['a bank account removal moves nothing', removal, false],
  ])('STEP_UP_AT_LEAST 100000: %s', (_, snapshot, expected) => {
    expect(stepUpRequired({ snapshot }, at)).toBe(expected);
  });

  it('a rule with step_up asks whatever the value; without settings or rule nothing asks', () => {
    expect(stepUpRequired({ snapshot: withdrawal('1', true) }, { atLeastUsd: undefined })).toBe(true);
    expect(stepUpRequired({ snapshot: withdrawal() }, { atLeastUsd: undefined })).toBe(false);
  });

  it('prices new requests in USD only when STEP_UP_AT_LEAST asks and the request moves money', () => {
    expect(stepUpCurrencies(at, withdrawal('1'))).toEqual(['USD']);
    expect(stepUpCurrencies(at, removal)).toEqual([]);
    expect(stepUpCurrencies({ atLeastUsd: undefined }, withdrawal('1'))).toEqual([]);
  });
});
