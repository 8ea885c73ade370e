/**
 * One error model for everything the exchange boundary can throw (the client, and the engine's
 * exchange port over it). Callers branch on `kind`;
 * `messages` are the exchange's own `errors[].message` texts, shown to people as they are.
 * Nothing secret is ever put into one: no headers, no key, no signature.
 */
export const EXCHANGE_ERROR_KINDS = [
  'unauthorized', // 401
  'forbidden', // 403 (missing scope, see assumptions.ts)
  'not_found', // 404
  'unprocessable', // 422 and other 4xx refusals
  'rate_limited', // 429
  'server', // 5xx
  'network', // connection refused/reset/dropped: outcome of a write unknown
  'timeout', // no answer in time: outcome of a write unknown
  'invalid_response', // 2xx whose body breaks its schema, or unparseable JSON
] as const;
export type ExchangeErrorKind = (typeof EXCHANGE_ERROR_KINDS)[number];

/**
 * What a refusal means for the engine, read by the exchange port (exchange/engine-port/) from the
 * status and the exchange's words, so the engine never parses either:
 * - `duplicate_client_order_id`: an order with this client_order_id exists: it was placed, find it;
 * - `quote_unusable`: the quote expired or was used: take a new one;
 * - `counterparty_already_declared`: the exchange has counterparty info for the transaction already.
 */
export type ExchangeRefusal = 'duplicate_client_order_id' | 'quote_unusable' | 'counterparty_already_declared';

export interface ExchangeErrorInit {
  kind: ExchangeErrorKind;
  refusal?: ExchangeRefusal;
  operation: string;
  status?: number;
  messages?: string[];
  /** For invalid_response: the path of the first field at fault, e.g. "items[3].amount". */
  fieldPath?: string;
  retryAfterMs?: number;
  /** Our own description of what was wrong (schema issue, network code): logs only, never secret. */
  detail?: string;
  /** The server's clock from its Date header (ms), when it answered: tells a 401 from clock skew. */
  serverTimeMs?: number;
  cause?: unknown;
}

export class ExchangeError extends Error {
  override name = 'ExchangeError';
  readonly kind: ExchangeErrorKind;
  readonly refusal: ExchangeRefusal | undefined;
  readonly operation: string;
  readonly status: number | undefined;
  readonly messages: string[];
  readonly fieldPath: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly serverTimeMs: number | undefined;
  readonly detail: string | undefined;

  constructor(init: ExchangeErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.refusal = init.refusal;
    this.operation = init.operation;
    this.status = init.status;
    this.messages = init.messages ?? [];
    this.fieldPath = init.fieldPath;
    this.retryAfterMs = init.retryAfterMs;
    this.serverTimeMs = init.serverTimeMs;
    this.detail = init.detail;
  }

  /** The same error, read as `refusal` (the port's reading of the exchange's words). */
  as(refusal: ExchangeRefusal): ExchangeError {
    const { kind, operation, status, messages, fieldPath, retryAfterMs, serverTimeMs, detail } = this;
    return new ExchangeError({
      kind,
      operation,
      status,
      messages,
      fieldPath,
      retryAfterMs,
      serverTimeMs,
      detail,
      refusal,
      cause: this,
    });
  }

  /**
   * True when the exchange may or may not have acted on a write: the caller must reconcile
   * before trying again, never retry blindly.
   */
  get outcomeUnknown(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || this.kind === 'server';
  }

  /** The exchange's own words for people, or a plain sentence when it gave none. */
  get userMessage(): string {
    if (this.messages.length > 0) return this.messages.join('; ');
    return PLAIN[this.kind];
  }
}

const PLAIN: Record<ExchangeErrorKind, string> = {
  unauthorized: 'The exchange did not accept our API key or signature.',
  forbidden: 'Our API key is not allowed to do this (missing scope).',
  not_found: 'The exchange says this does not exist.',
  unprocessable: 'The exchange refused the request.',
  rate_limited: 'The exchange asked us to slow down.',
  server: 'The exchange had an internal error.',
  network: 'The exchange could not be reached.',
  timeout: 'The exchange did not answer in time.',
  invalid_response: 'The exchange answered with something we do not understand.',
};

function describe(init: ExchangeErrorInit): string {
  const status = init.status === undefined ? '' : ` ${init.status}`;
  const msgs = init.messages?.length ? `: ${init.messages.join('; ')}` : '';
  const field = init.fieldPath ? ` (at ${init.fieldPath})` : '';
  const detail = init.detail ? ` [${init.detail}]` : '';
  return `${init.operation} failed (${init.kind}${status})${msgs}${field}${detail}`;
}

export function isExchangeError(e: unknown): e is ExchangeError {
  return e instanceof ExchangeError;
}
