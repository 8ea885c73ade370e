/** The polling budget (src/bot/domain/token-bucket.ts). */
import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../src/bot/domain/token-bucket.js';

describe('TokenBucket', () => {
  it('gives the burst at once, then ratePerSecond tokens a second, never more than the burst saved', () => {
    let now = 0;
    const bucket = new TokenBucket(() => now, 2, 3);
    const takeAll = () => {
      let n = 0;
      while (bucket.tryTake()) n++;
      return n;
    };
    expect(takeAll()).toBe(3);
    now += 1_000;
    expect(takeAll()).toBe(2);
    now += 60_000;
    expect(takeAll()).toBe(3);
  });

  it('take() spends a token it does not have, and that debt is repaid before tryTake succeeds again', () => {
    let now = 0;
    const bucket = new TokenBucket(() => now, 2, 2);
    expect(bucket.tryTake()).toBe(true);
    expect(bucket.tryTake()).toBe(true);
    bucket.take();
    bucket.take(); // two pages already fetched without a token: the balance is -2
    now += 1_000; // +2: back to 0
    expect(bucket.tryTake()).toBe(false);
    now += 500; // +1
    expect(bucket.tryTake()).toBe(true);
  });

  it('refuses a rate or burst that cannot work', () => {
    expect(() => new TokenBucket(() => 0, 0, 1)).toThrow(RangeError);
    expect(() => new TokenBucket(() => 0, 1, 0.5)).toThrow(RangeError);
  });
});
