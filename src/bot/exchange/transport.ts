// One HTTP call to the exchange: URL, body, signature, timeout, retry, status mapping and schema
// check, in that order and nowhere else; everything that varies is injected.
import type { ClockOffset } from './clock-offset.js';
import type { z } from 'zod';
import type { Clock } from '../ports/clock.js';
import { ExchangeError, type ExchangeErrorKind } from '../ports/exchange-error.js';
import { API_PREFIX, HEADER } from './protocol.js';
import type { RateLimiter } from './rate-limit.js';
import { parseRetryAfter, shouldRetry, type AttemptFailure, type RetryPolicy } from './retry.js';
import { errorBody } from './schemas.js';
import type { Signer } from './signer.js';
import { buildUrl, pathParam, type Query } from './url.js';
import { parseOrThrow } from './validate.js';

/** The slice of WHATWG fetch the client uses; inject a fake or an instrumented one. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** One line per attempt. Deliberately without headers, query, body, signature or key. */
export interface RequestLogEntry {
  operation: string;
  method: string;
  /** The path's template after API_PREFIX, e.g. /crypto/withdrawals/{id}: no ids, so a metric label may hold it. */
  route: string;
  /** Path without origin or query, e.g. /public_api/v1/crypto/withdrawals/4f1c... */
  path: string;
  attempt: number;
  status?: number;
  kind?: ExchangeErrorKind;
  durationMs: number;
}
export type RequestLogger = (entry: RequestLogEntry) => void;

export interface TransportOptions {
  /** From normaliseBaseUrl(): origin plus optional path prefix, no trailing slash. */
  baseUrl: string;
  signer: Signer;
  fetch: FetchLike;
  clock: Clock;
  timeoutMs: number;
  retry: RetryPolicy;
  random: () => number;
  rateLimiter?: RateLimiter | undefined;
  logger?: RequestLogger | undefined;
  /** Told of every answer's Date header, with our clock at send and receipt (clock-offset.ts). */
  clockOffset?: ClockOffset | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface RequestSpec<T> {
  /** Name used in errors and logs, e.g. `listBalances`. */
  operation: string;
  method: HttpMethod;
  /** Path after API_PREFIX, with `{name}` placeholders, e.g. `/crypto/withdrawals/{id}`. */
  path: string;
  params?: Record<string, string | number>;
  query?: Query;
  /** Request body and the schema it must meet before anything is sent. */
  body?: { value: unknown; schema: z.ZodType<unknown> };
  /** Schema of a 2xx body; null when no body is expected (204). */
  response: z.ZodType<T> | null;
  /** False for the public price endpoint: no signature headers at all. */
  auth?: boolean;
}

export interface TransportResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Send one API request (retrying reads only) and return its validated body and headers. */
export async function request<T>(t: TransportOptions, spec: RequestSpec<T>): Promise<TransportResponse<T>> {
  const { operation, method } = spec;
  const path = resolvePath(spec);
  const url = buildUrl(t.baseUrl, path, spec.query);
  // Serialised once: the digest is over exactly these bytes, on every attempt.
  const body =
    spec.body === undefined
      ? undefined
      : JSON.stringify(parseOrThrow(spec.body.schema, spec.body.value, operation, 'unprocessable'));
  const logPath = API_PREFIX + path;

  for (let attempt = 1; ; attempt++) {
    await t.rateLimiter?.acquire();
    const headers: Record<string, string> = { accept: 'application/json, application/vnd.api+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (spec.auth !== false) {
      Object.assign(headers, t.signer.headers({ method, targetUri: url, body, timestampMs: t.clock.now() }));
    }

    const started = performance.now();
    const log = (status: number | undefined, kind: ExchangeErrorKind | undefined): void => {
      try {
        t.logger?.({
          operation,
          method,
          route: spec.path,
          path: logPath,
          attempt,
          ...(status === undefined ? {} : { status }),
          ...(kind ? { kind } : {}),
          durationMs: performance.now() - started,
        });
      } catch {
        // A broken logger must not turn a completed exchange call into a failure.
      }
    };

    let failure: AttemptFailure;
    let error: ExchangeError;
    const sentAt = t.clock.now();
    const sent = await send(t, url, { method, headers, ...(body === undefined ? {} : { body }) });
    if (!('failed' in sent)) t.clockOffset?.observe(sentAt, t.clock.now(), sent.res.headers.get('date'));
    if ('failed' in sent) {
      log(undefined, sent.failed);
      failure = { kind: sent.failed };
      error = new ExchangeError({ kind: sent.failed, operation, detail: sent.detail });
    } else {
      const { res, text } = sent;
      if (res.status >= 200 && res.status <= 299) {
        try {
          const data = parseSuccess(spec, res, text);
          log(res.status, undefined);
          return { status: res.status, headers: res.headers, data };
        } catch (e) {
          log(res.status, 'invalid_response');
          throw e;
        }
      }
      error = errorFromResponse(operation, res, text, t.clock.now());
      log(res.status, error.kind);
      failure = { kind: 'status', status: res.status, retryAfter: res.headers.get(HEADER.retryAfter) };
    }

    const decision = shouldRetry({ method, attempt, failure, nowMs: t.clock.now(), random: t.random, policy: t.retry });
    if (!decision.retry) throw error;
    await t.clock.sleep(decision.delayMs);
  }
}

function resolvePath(spec: RequestSpec<unknown>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = spec.params?.[name];
    try {
      if (value === undefined) throw new RangeError(`missing path parameter ${name}`);
      return pathParam(value);
    } catch (e) {
      throw new ExchangeError({
        kind: 'unprocessable',
        operation: spec.operation,
        messages: [`Request not sent: ${(e as Error).message}`],
      });
    }
  });
}

type Sent = { res: Response; text: string } | { failed: 'network' | 'timeout'; detail: string };

/** fetch plus reading the whole body, under one timeout. Never throws. */
async function send(t: TransportOptions, url: string, init: RequestInit): Promise<Sent> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, t.timeoutMs);
  try {
    // A redirect would be followed to a URL we did not sign: surface it instead.
    const res = await t.fetch(url, { ...init, signal: controller.signal, redirect: 'manual' });
    const text = await res.text();
    return { res, text };
  } catch (e) {
    if (timedOut) return { failed: 'timeout', detail: `no answer within ${t.timeoutMs} ms` };
    return { failed: 'network', detail: networkDetail(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** The original error is not kept as `cause`: some (a test double's "no match") print the headers, signature included. */
function networkDetail(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const code = err?.code ?? err?.cause?.code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  const cause = err?.cause?.message;
  if (typeof cause === 'string' && cause.length < 80 && !/[0-9A-F]{32}/i.test(cause)) return cause;
  return 'connection failed';
}

function parseSuccess<T>(spec: RequestSpec<T>, res: Response, text: string): T {
  if (spec.response === null) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  if (type !== '' && !JSON_MEDIA.test(type)) {
    throw new ExchangeError({
      kind: 'invalid_response',
      operation: spec.operation,
      status: res.status,
      detail: `unexpected content type ${type.slice(0, 60)}`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ExchangeError({
      kind: 'invalid_response',
      operation: spec.operation,
      status: res.status,
      detail: text === '' ? 'empty body' : 'body is not JSON',
    });
  }
  return parseOrThrow(spec.response, json, spec.operation, 'invalid_response', res.status);
}

/** Status to kind: the one mapping of HTTP answers onto the error model. */
export function kindForStatus(status: number): ExchangeErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status >= 400) return 'unprocessable';
  // 1xx/3xx: nothing an API call should answer with (a redirect means a wrong base URL).
  return 'invalid_response';
}

function errorFromResponse(operation: string, res: Response, text: string, nowMs: number): ExchangeError {
  const retryAfter = res.headers.get(HEADER.retryAfter);
  const retryAfterMs = retryAfter === null ? undefined : parseRetryAfter(retryAfter, nowMs);
  const date = Date.parse(res.headers.get('date') ?? '');
  const kind = kindForStatus(res.status);
  return new ExchangeError({
    kind,
    operation,
    status: res.status,
    messages: errorMessages(text),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(Number.isNaN(date) ? {} : { serverTimeMs: date }),
    ...(kind === 'invalid_response'
      ? {
          detail: `unexpected HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' redirect (check the base URL)' : ''}`,
        }
      : {}),
  });
}

/** `errors[].message` of an error body; tolerant of HTML pages, empty bodies and odd shapes. */
export function errorMessages(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (json === null || typeof json !== 'object') return [];
  const { errors, message, error } = json as { errors?: unknown; message?: unknown; error?: unknown };
  if (Array.isArray(errors)) {
    // errorBody is the documented shape; elements without a string message are skipped, not fatal.
    return errors.flatMap((e) => {
      const one = errorBody.shape.errors.element.safeParse(e);
      return one.success ? [one.data.message] : [];
    });
  }
  const single = message ?? error;
  return typeof single === 'string' ? [single] : [];
}

/** `request` bound to one client's options: what the per-area operation files are given. */
export type Call = <T>(spec: RequestSpec<T>) => Promise<TransportResponse<T>>;
