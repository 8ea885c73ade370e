/**
 * Start a sandbox for one test file: a manual clock (only advance() moves it), a key with every
 * scope, and `api()` that signs with node:crypto and fetches over real HTTP on loopback.
 */
import type { z } from 'zod';
import { createSandboxClock } from '../../../../src/stand-ins/sandbox/sandbox-clock.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/stand-ins/sandbox/server.js';
import type { Scope } from '../../../../src/bot/exchange/assumptions.js';
import { makeKey, signedHeaders, type TestKey } from './sign.js';

export const ALL_SCOPES: Scope[] = ['read', 'transfer', 'trade'];
/** A fixed sandbox start time, so seeded times are the same on every run. */
export const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON under test; the tests check it with the client's schemas. */
  body: any;
}

export interface CallOptions {
  body?: unknown;
  key?: TestKey;
  /** Override or add headers after signing (to tamper). */
  headers?: Record<string, string>;
  /** Sign this URL instead of the one sent. */
  signUrl?: string;
  /** Sign this body instead of the one sent. */
  signBody?: string;
  timestamp?: string;
  unsigned?: boolean;
  /** Give up after this long, as a client with a timeout does. */
  timeoutMs?: number;
}

export interface TestSandbox {
  sandbox: Sandbox;
  key: TestKey;
  /** Signed request to `pathAndQuery` (starting with /public_api/v1 or /_sandbox). */
  api(method: string, pathAndQuery: string, opts?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export async function startTestSandbox(
  options: SandboxOptions & { scopes?: Scope[]; extraKeys?: SandboxOptions['keys'] } = {},
): Promise<TestSandbox> {
  const key = makeKey();
  const sandbox = await startSandbox({
    seed: 'test-seed',
    clock: createSandboxClock({ startMs: T0, followRealTime: false }),
    ...options,
    keys: [{ publicKeyHex: key.compressedHex, scopes: options.scopes ?? ALL_SCOPES }, ...(options.extraKeys ?? [])],
  });
  const api = async (method: string, pathAndQuery: string, opts: CallOptions = {}): Promise<Answer> => {
    const url = sandbox.url + pathAndQuery;
    const bodyText =
      opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const signer = opts.key ?? key;
    const headers: Record<string, string> = opts.unsigned
      ? {}
      : signedHeaders(signer, {
          method,
          url: opts.signUrl ?? url,
          body: opts.signBody ?? bodyText,
          timestamp: opts.timestamp ?? String(Date.now()),
        });
    if (bodyText !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers: { ...headers, ...opts.headers },
      body: bodyText,
      ...(opts.timeoutMs ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
    });
    const text = await res.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: res.status, headers: res.headers, body };
  };
  return { sandbox, key, api, close: () => sandbox.close() };
}

/** Parse with a client schema and return the data; a failure names the path at fault. */
export function expectSchema<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(
      `response breaks the client's schema: ${JSON.stringify(r.error.issues.slice(0, 3))}\n${JSON.stringify(value).slice(0, 500)}`,
    );
  return r.data;
}

export const V1 = '/public_api/v1';
