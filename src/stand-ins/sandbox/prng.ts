// Seeded randomness so a demo or failing test replays exactly (SANDBOX_SEED). Not for anything secret.

/** 32-bit FNV-1a of a string: turns any seed text ("demo", "42") into a PRNG seed. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One step of mulberry32 (tiny, fast and good enough for test data): the next state and a float in [0, 1). */
function mulberry32Step(state: number): { state: number; value: number } {
  const a = (state + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: a, value: ((t ^ (t >>> 14)) >>> 0) / 4294967296 };
}

export interface Rng {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `n` characters drawn from `alphabet`. */
  chars(alphabet: string, n: number): string;
  /** A version-4-shaped UUID, lowercase. */
  uuid(): string;
  /** A fresh generator derived from this one and a label (stable however much the parent is used later). */
  fork(label: string): Rng;
  /** Its seed and how far it has gone: JSON.stringify writes this, and createRng(seed, at) resumes there (persist.ts). */
  toJSON(): SavedRng;
}

/** A generator as saved: its seed text and its mulberry32 state. */
export interface SavedRng {
  $rng: { seed: string; at: number };
}

const HEX = '0123456789abcdef';

/** A seeded generator. `seed` may be any text; its hash seeds mulberry32. `at`: resume a saved one there. */
export function createRng(seed: string, at?: number): Rng {
  let state = at ?? hashSeed(seed) >>> 0;
  const next = () => {
    const step = mulberry32Step(state);
    state = step.state;
    return step.value;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    chars: (alphabet, n) => {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    uuid: () => {
      const h = rng.chars(HEX, 32);
      const variant = HEX[8 + Math.floor(next() * 4)];
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    fork: (label) => createRng(`${seed}/${label}`),
    toJSON: () => ({ $rng: { seed, at: state } }),
  };
  return rng;
}

export const ALPHABET = {
  hex: HEX,
  base58: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  bech32: 'qpzry9x8gf2tvdw0s3jn54khce6mua7l',
  digits: '0123456789',
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
} as const;
