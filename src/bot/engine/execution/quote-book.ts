// Never two live quotes on one pair, side, quantity and payment method: a newer quote can kill an older,
// so quoting and ordering on a key are serialised, and the newest id per key marks older ones dead.
import { KeyedLock } from '../../domain/keyed-lock.js';
import { perEngine } from '../context.js';

export class QuoteBook {
  readonly #lock = new KeyedLock();
  readonly #newest = new Map<string, string>();

  /** Runs `fn` holding the key: nobody else quotes on it until `fn` has sent its order. */
  withKey<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.#lock.run(key, fn);
  }

  /** Holds the key until the returned release is called (an execution that quotes and orders on it). */
  hold(key: string): Promise<() => void> {
    return this.#lock.acquire(key);
  }

  /** Records a quote just taken: every older quote on the key is now superseded. */
  taken(key: string, quoteId: string): void {
    this.#newest.set(key, quoteId);
  }

  /** True when a newer quote on the same key was taken in this process. */
  isSuperseded(key: string, quoteId: string): boolean {
    const newest = this.#newest.get(key);
    return newest !== undefined && newest !== quoteId;
  }
}

/** The engine's one quote book. */
export const quoteBookOf = perEngine(() => new QuoteBook());
