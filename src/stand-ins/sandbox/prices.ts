// One seeded random walk per pair, a function of the step index (not of reads), so the same seed and
// clock moves give the same prices.
import { applyBps, roundDown, roundUp } from '../../bot/domain/money.js';
import { createRng, type Rng } from './prng.js';

/** One step of the walk per second of sandbox time. */
export const PRICE_STEP_MS = 1_000;
/** A read that is this many steps behind jumps instead of walking (keeps big clock jumps cheap). */
const MAX_CATCH_UP_STEPS = 600;

export interface PairSpec {
  symbol: string;
  base: string;
  counter: string;
  /** Mid price at the start of the walk. */
  start: string;
  /** Decimal places of a quoted price. */
  pricePrecision: number;
  /** Largest random move per step, in basis points either way. */
  volatilityBps: number;
  /** Half the buy/sell spread around the mid, in basis points. */
  spreadBps: number;
}

interface PairWalk {
  spec: PairSpec;
  mid: string;
  step: number;
  driftBps: number;
  volatilityBps: number;
  rng: Rng;
}

export interface PriceBook {
  originMs: number;
  pairs: Map<string, PairWalk>;
}

/** A price book whose walks start at `originMs` (sandbox time), seeded per pair. */
export function createPriceBook(seed: string, specs: readonly PairSpec[], originMs: number): PriceBook {
  const pairs = new Map<string, PairWalk>();
  for (const spec of specs) {
    pairs.set(spec.symbol, {
      spec,
      mid: spec.start,
      step: 0,
      driftBps: 0,
      volatilityBps: spec.volatilityBps,
      rng: createRng(`${seed}/price/${spec.symbol}`),
    });
  }
  return { originMs, pairs };
}

export function pairSpec(book: PriceBook, symbol: string): PairSpec | undefined {
  return book.pairs.get(symbol)?.spec;
}

export function midPrice(book: PriceBook, symbol: string, now: number): string {
  const walk = book.pairs.get(symbol);
  if (!walk) throw new Error(`unknown pair ${symbol}`);
  const target = Math.max(walk.step, Math.floor((now - book.originMs) / PRICE_STEP_MS));
  if (target - walk.step > MAX_CATCH_UP_STEPS) walk.step = target - MAX_CATCH_UP_STEPS;
  while (walk.step < target) {
    const move = Math.round((walk.rng.next() * 2 - 1) * walk.volatilityBps) + walk.driftBps;
    const next = roundDown(applyBps(walk.mid, move), walk.spec.pricePrecision + 4);
    // A walk never reaches zero: a price is always positive.
    if (next !== '0') walk.mid = next;
    walk.step++;
  }
  return roundDown(walk.mid, walk.spec.pricePrecision);
}

/** The price a quote locks: the mid plus the spread for a buy (rounded up), minus it for a sell. */
export function quotedPrice(book: PriceBook, symbol: string, side: 'buy' | 'sell', now: number): string {
  const walk = book.pairs.get(symbol);
  if (!walk) throw new Error(`unknown pair ${symbol}`);
  const mid = midPrice(book, symbol, now);
  const p = walk.spec.pricePrecision;
  return side === 'buy'
    ? roundUp(applyBps(mid, walk.spec.spreadBps), p)
    : roundDown(applyBps(mid, -walk.spec.spreadBps), p);
}

/** Control: set the mid price now, and optionally a drift (bps per step) and volatility. */
export function setPrice(
  book: PriceBook,
  symbol: string,
  now: number,
  change: { price?: string; driftBps?: number; volatilityBps?: number },
): void {
  const walk = book.pairs.get(symbol);
  if (!walk) throw new Error(`unknown pair ${symbol}`);
  midPrice(book, symbol, now); // bring the walk up to now first
  if (change.price !== undefined) walk.mid = change.price;
  if (change.driftBps !== undefined) walk.driftBps = change.driftBps;
  if (change.volatilityBps !== undefined) walk.volatilityBps = change.volatilityBps;
}
