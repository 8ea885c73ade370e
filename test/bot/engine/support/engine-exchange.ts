/**
 * The exchange of a World (world.ts): the sandbox in this process behind the real signed client,
 * its clock following the test's FakeClock (offset when asked), with no socket. A test scripts it
 * through the sandbox's own control and faults: `script` picks a fault for one request as it arrives.
 */
import { createExchangeClient, type ExchangeClient } from '../../../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../../../src/bot/exchange/signer.js';
import type { FakeClock } from '../../../support/fake-clock.js';
import {
  createSandboxClock,
  openSandbox,
  type FaultRule,
  type InProcessSandbox,
  type SandboxCommit,
} from '../../../../src/stand-ins/sandbox/index.js';
import { makeKey } from '../../../stand-ins/sandbox/support/sign.js';
import { SEED } from './seeded.js';

/** A request as it reaches the exchange. */
export interface Arrival {
  method: string;
  /** Path without origin or query, e.g. /public_api/v1/crypto/withdrawals. */
  path: string;
}

/** A fault for one request (the sandbox's own kinds), without where: it hits the request it was picked for. */
export type Scripted = Omit<FaultRule, 'method' | 'path' | 'times' | 'probability'>;

export interface EngineExchangeOptions {
  /** Default SEED (seeded.ts). */
  seed?: string;
  /** The exchange's clock minus the test's (ms); the client measures it from the Date header. */
  clockOffsetMs?: number;
}

/**
 * In process an answer never waits on a timer (in-process.test.ts), so this bound only ends a `hang`:
 * the client's timeout, kept short so a test of timeouts takes milliseconds.
 */
const TIMEOUT_MS = 5;

/** One key for every World: each sandbox registers it; making one costs more than a World's seed. */
const KEY = makeKey();

export class EngineExchange {
  readonly sandbox: InProcessSandbox;
  readonly client: ExchangeClient;
  /** Every write the exchange committed, in order. */
  readonly commits: SandboxCommit[] = [];
  /** Called at each commit, before its answer leaves (an invariant check at the worst moment). */
  onCommit: ((commit: SandboxCommit) => void) | undefined;
  /** Faults queued per operation, used first, one a request. */
  readonly #queued = new Map<Op, Scripted[]>();
  /** Picks a fault for the request arriving now, or none (after the queued ones). */
  script: ((arrival: Arrival) => Scripted | undefined) | undefined;
  /** Called as each request arrives, before it is served. */
  onArrival: ((arrival: Arrival) => void) | undefined;

  constructor(clock: FakeClock, o: EngineExchangeOptions = {}) {
    const key = KEY;
    const exchangeClock = createSandboxClock({
      startMs: clock.now() + (o.clockOffsetMs ?? 0),
      followRealTime: true,
      wallNow: () => clock.now(),
    });
    this.sandbox = openSandbox({
      seed: o.seed ?? SEED,
      clock: exchangeClock,
      // The exchange judges a request's timestamp by its own clock.
      authNow: () => exchangeClock.now(),
      keys: [{ publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] }],
      onCommit: (commit) => {
        this.commits.push(commit);
        this.onCommit?.(commit);
      },
    });
    const fetch = (url: string, init: RequestInit) => {
      const arrival = { method: init.method ?? 'GET', path: new URL(url).pathname };
      this.arrivals.push(arrival);
      this.onArrival?.(arrival);
      const fault = this.#nextQueued(arrival) ?? this.script?.(arrival);
      if (fault) this.sandbox.control.addFault({ ...fault, method: arrival.method, path: arrival.path, times: 1 });
      return this.sandbox.fetch(url, init);
    };
    // The client production builds, on the test's clock; no read retries, so one fault is one failed call.
    this.client = createExchangeClient({
      baseUrl: this.sandbox.url,
      signer: createSigner(parsePrivateKey(key.privateKeyHex)),
      fetch,
      clock,
      timeoutMs: TIMEOUT_MS,
      retry: false,
      rateLimit: false,
    });
  }

  /** Queues faults for the next request(s) of `op`. */
  fail(op: Op, ...faults: Scripted[]): void {
    this.#queued.set(op, [...(this.#queued.get(op) ?? []), ...faults]);
  }

  /** Forgets every queued fault and the script. */
  clearFaults(): void {
    this.#queued.clear();
    this.script = undefined;
  }

  #nextQueued(arrival: Arrival): Scripted | undefined {
    for (const [op, faults] of this.#queued) if (faults.length > 0 && isOp(op, arrival)) return faults.shift();
    return undefined;
  }

  /** Requests of `op` the exchange received. */
  calls(op: Op): number {
    return this.arrivals.filter((a) => isOp(op, a)).length;
  }

  /** Writes the exchange committed, quotes apart (a quote commits nothing a request executes). */
  writes(): SandboxCommit[] {
    return this.commits.filter((c) => !PATH.quotes.test(c.path));
  }

  /** Every request as it reached the exchange (the sandbox's access log is bounded; this is not). */
  readonly arrivals: Arrival[] = [];

  /** Requests the exchange received of `method` on paths matching `path`. */
  received(method: string, path: RegExp): number {
    return this.arrivals.filter((r) => r.method === method && path.test(r.path)).length;
  }

  /** Commits of `method` on paths matching `path`. */
  committed(method: string, path: RegExp) {
    return this.commits.filter((c) => c.method === method && path.test(c.path));
  }
}

/** The operations the engine's tests script and count: method and path. */
export const OPS = {
  createCryptoWithdrawal: ['POST', /\/crypto\/withdrawals$/],
  createFiatWithdrawal: ['POST', /\/fiat\/withdrawals$/],
  createOrder: ['POST', /\/orders$/],
  createQuote: ['POST', /\/order_quotes$/],
  deleteBankAccount: ['DELETE', /\/bank_accounts\/[^/]+$/],
  read: ['GET', /./],
} as const satisfies Record<string, readonly [string, RegExp]>;
export type Op = keyof typeof OPS;

function isOp(op: Op, a: Arrival): boolean {
  const [method, path] = OPS[op];
  return a.method === method && path.test(a.path);
}

/** Paths of the operations the engine's tests count. */
export const PATH = {
  cryptoWithdrawals: /\/crypto\/withdrawals$/,
  cryptoWithdrawal: /\/crypto\/withdrawals\/[^/]+$/,
  fiatWithdrawals: /\/fiat\/withdrawals$/,
  orders: /\/orders$/,
  order: /\/orders\/[^/]+$/,
  quotes: /\/order_quotes$/,
  bankAccount: /\/bank_accounts\/[^/]+$/,
  /** Any list the engine pages through. */
  lists: /\/(crypto\/withdrawals|fiat\/withdrawals|orders|address_book\/addresses|bank_accounts)$/,
} as const;
