// One sandbox without its socket: state, clock, control, faults and late commits, answering one wire
// request at a time. server.ts puts it on loopback HTTP; in-process.ts behind a `fetch`, for unit tests.
import type { IncomingHttpHeaders } from 'node:http';
import { DEFAULT_TIMESTAMP_WINDOW_MS } from '../../bot/exchange/assumptions.js';
import { HEADER } from '../../bot/exchange/protocol.js';
import { serveApi, type ApiRequest } from './api.js';
import { createSandboxClock, type SandboxClock } from './sandbox-clock.js';
import { createControl, type AccessLogEntry, type SandboxControl } from './control.js';
import { CONTROL_PREFIX, handleControl } from './control-http.js';
import { FaultSet, type FaultRule } from './faults.js';
import { KeyRegistry, type KeySpec } from './keys.js';
import { createLateCommits, DEFAULT_LATE_COMMIT_MS } from './late-commits.js';
import { errorBody, HttpError, type SandboxResponse } from './router.js';
import { addAccount, DEFAULT_ACCOUNT, seedState } from './seed.js';
import { decodeSandbox, encodeBody, encodeSandbox } from './persist.js';
import type { SandboxState } from './state.js';
import { DEFAULT_QUOTE_LIFETIME_MS } from './timings.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one (server.ts only). */
  port?: number;
  /** SANDBOX_SEED: same seed, same ids, addresses and price walks. Default `sandbox`. */
  seed?: string;
  /** The exchange's clock; by default the wall clock plus whatever advance() added. */
  clock?: SandboxClock;
  /** Without `clock`: whether the default clock also moves with real time (default true). */
  realTime?: boolean;
  /** Default: the wall clock, as the real exchange's, so tests may move the sandbox clock by hours and keep signing with real time. */
  authNow?: () => number;
  /** Accepted clock difference for X-API-Timestamp, ± ms. */
  timestampWindowMs?: number;
  /** expires_at = now + this, for every quote. */
  quoteLifetimeMs?: number;
  /** Registered API keys with their scopes (and account, `main` by default). */
  keys?: readonly KeySpec[];
  faults?: readonly FaultRule[];
  /** Called once per request with method, path (no query), status: never headers or bodies. */
  onRequest?: (entry: AccessLogEntry) => void;
  /** Called at the moment a write commits (a late one too), before any answer leaves: a test's invariant check. */
  onCommit?: (commit: SandboxCommit) => void;
  /** The text an earlier run gave `save` (persist.ts): the sandbox continues from it instead of the seed (and its clock, unless `clock` is given). */
  restore?: string;
  /** Called after each change, one at a time: an answer that changed state goes out once its save resolved (a rejection fails it). */
  save?: (text: string) => void | Promise<void>;
}

/** A write the exchange committed: a POST or DELETE of the public API that it answered 2xx. */
export interface SandboxCommit {
  /** Sandbox time of the commit. */
  at: number;
  method: string;
  /** Path without the query, e.g. /public_api/v1/crypto/withdrawals. */
  path: string;
  account: string;
  /** The request's JSON body as sent (undefined when it had none). */
  body: unknown;
  /** The answer's JSON body (what the caller would get, if it gets anything). */
  answer: unknown;
}

/** One request as it arrived on the wire. */
export interface WireRequest {
  method: string;
  /** Path and query exactly as sent, e.g. /public_api/v1/orders?page[size]=2. */
  target: string;
  /** Scheme, host and port the caller addressed, e.g. http://127.0.0.1:4100 (the signature covers the full URL). */
  origin: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/** What becomes of a request: an answer, a connection cut, or nothing until the caller gives up. */
export type WireOutcome =
  | { kind: 'answer'; status: number; headers: Record<string, string>; text?: string }
  | { kind: 'drop' }
  | { kind: 'hang' };

export interface SandboxCore {
  control: SandboxControl;
  clock: SandboxClock;
  keys: KeyRegistry;
  readonly state: SandboxState;
  /** Answers one request; `controlAllowed` says whether the control surface may answer it (server.ts: this machine only). */
  serve(req: WireRequest, controlAllowed: (headers: IncomingHttpHeaders) => boolean): Promise<WireOutcome>;
  /** Stops the late-commit timer and latency waits; resolves once the last save is done. */
  close(): Promise<void>;
}

const ACCESS_LOG_LIMIT = 5_000;

/** A body of the wrong shape for any schema: arrays become objects and objects arrays. */
function breakShape(body: unknown): unknown {
  return Array.isArray(body) ? { data: body } : [body];
}

/** What decides whether a save is due: the body, and the clock's lead on the wall clock (or its time, for a manual clock). */
function savedKey(body: string, clock: SandboxClock): string {
  const { now, aheadMs } = clock.reading();
  return `${aheadMs ?? `@${now}`} ${body}`;
}

/** The same object, calling `after` once each of its functions returned or threw. */
function afterEachCall<T extends object>(target: T, after: () => void): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return (value as (...a: unknown[]) => unknown)(...args);
            } finally {
              after();
            }
          }
        : value;
  }
  return wrapped as T;
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Build a sandbox: seeded (or restored) state, its clock, keys, faults and control. */
export function createSandboxCore(options: SandboxOptions = {}): SandboxCore {
  const saved = options.restore === undefined ? undefined : decodeSandbox(options.restore);
  const seed = saved?.state.seed ?? options.seed ?? 'sandbox';
  const clock =
    options.clock ?? createSandboxClock(saved ? { resume: saved.clock } : { followRealTime: options.realTime ?? true });
  const keys = new KeyRegistry(DEFAULT_ACCOUNT);
  for (const k of [...(saved?.keys ?? []), ...(options.keys ?? [])]) keys.register(k);
  let state = saved?.state ?? seedState(seed, clock.now(), keys.accounts());
  // A key of this run may act on an account the saved state does not have yet.
  for (const name of keys.accounts()) addAccount(state, name, clock.now());
  const faults = new FaultSet(seed);
  faults.set(options.faults ?? []);
  const accessLog: AccessLogEntry[] = [];
  const late = createLateCommits(saved?.late);
  const body = () => encodeBody({ state, late: late.list(), keys: keys.specs() });
  let lastSaved = saved ? savedKey(body(), clock) : undefined;
  let saving: Promise<void> = Promise.resolve();
  /** Only when state, late writes or the clock's lead changed, after the saves before it. */
  const saveIfChanged = (): Promise<void> => {
    const save = options.save;
    if (!save) return saving;
    const now = body();
    const key = savedKey(now, clock);
    if (key === lastSaved) return saving;
    lastSaved = key;
    const text = encodeSandbox(now, clock.reading());
    saving = saving
      .catch(() => undefined)
      .then(() => save(text))
      .catch((e: unknown) => {
        // Not saved: the next change tries again with the whole state.
        lastSaved = undefined;
        throw e;
      });
    return saving;
  };
  const saveInBackground = () =>
    void saveIfChanged().catch((e: unknown) => process.emitWarning(`sandbox: not saved: ${(e as Error).message}`));
  // A new sandbox is saved at once: its seeded state and clock are what a restart continues from.
  saveInBackground();
  // Moving the clock in process (control.advance) commits what has come due, as a request would.
  let afterClockMoved = () => {};
  const control = afterEachCall(
    createControl({
      getState: () => state,
      setState: (s) => (state = s),
      clock,
      faults,
      keys,
      seed,
      accessLog,
      afterClockMoved: () => afterClockMoved(),
    }),
    saveInBackground,
  );
  const apiDeps = {
    state: () => state,
    clock,
    keys,
    authNow: options.authNow ?? Date.now,
    timestampWindowMs: options.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS,
    quoteLifetimeMs: options.quoteLifetimeMs ?? DEFAULT_QUOTE_LIFETIME_MS,
  };
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const record = (entry: AccessLogEntry) => {
    accessLog.push(entry);
    if (accessLog.length > ACCESS_LOG_LIMIT) accessLog.splice(0, accessLog.length - ACCESS_LOG_LIMIT);
    options.onRequest?.(entry);
  };

  /** Tells onCommit of a write the exchange took (2xx to a POST or DELETE). */
  const committed = (request: ApiRequest, account: string | undefined, response: SandboxResponse, at: number) => {
    if (!options.onCommit || request.method === 'GET' || response.status < 200 || response.status > 299) return;
    options.onCommit({
      at,
      method: request.method,
      path: request.path,
      account: account ?? DEFAULT_ACCOUNT,
      body: parseJson(request.rawBody),
      answer: response.body,
    });
  };

  const answer = (r: SandboxResponse, rawText?: string): WireOutcome => {
    // The exchange's own clock, as a real exchange's Date header would show it (not the machine's).
    const headers: Record<string, string> = {
      'x-sandbox': '1',
      date: new Date(clock.now()).toUTCString(),
      ...r.headers,
    };
    if (r.status === 204 || (r.body === undefined && rawText === undefined))
      return { kind: 'answer', status: r.status, headers };
    const text = rawText ?? JSON.stringify(r.body);
    headers['content-type'] = `${r.contentType ?? 'application/json'}; charset=utf-8`;
    headers['content-length'] = String(Buffer.byteLength(text));
    return { kind: 'answer', status: r.status, headers, text };
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  let lateTimer: NodeJS.Timeout | undefined;
  function watchLateCommits(): void {
    if (closed) return;
    if (late.size > 0 && lateTimer === undefined) {
      lateTimer = setInterval(flushLateCommits, 200);
      lateTimer.unref();
    } else if (late.size === 0 && lateTimer !== undefined) {
      clearInterval(lateTimer);
      lateTimer = undefined;
    }
  }

  /** Commits every late write whose time has come on the sandbox clock, in the order they are due. */
  function flushLateCommits(): void {
    const due = late.due(clock.now());
    for (const pending of due) {
      const account = state.accounts.get(pending.account);
      if (account && pending.clientOrderId !== undefined)
        account.lateClientOrderIds = (account.lateClientOrderIds ?? []).filter((id) => id !== pending.clientOrderId);
      // Authenticated as it was when the exchange took it; committed at its due time.
      const deps = {
        ...apiDeps,
        authNow: () => pending.receivedAuthMs,
        clock: { now: () => pending.dueAt, advance: () => undefined, reading: () => clock.reading() },
      };
      const { response } = serveApi(deps, pending.request, pending.receivedAt, pending.dropNotes === true);
      committed(pending.request, pending.account, response, pending.dueAt);
      record({
        at: Date.now(),
        method: pending.request.method,
        path: pending.request.path,
        status: response.status,
        durationMs: 0,
        fault: 'late_commit:committed',
        account: pending.account,
      });
    }
    if (due.length > 0) saveInBackground();
    watchLateCommits();
  }

  afterClockMoved = flushLateCommits;

  async function serve(
    req: WireRequest,
    controlAllowed: (headers: IncomingHttpHeaders) => boolean,
  ): Promise<WireOutcome> {
    flushLateCommits();
    const at = Date.now();
    const started = performance.now();
    const method = req.method.toUpperCase();
    const q = req.target.indexOf('?');
    const path = q < 0 ? req.target : req.target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : req.target.slice(q + 1));
    const log = (status: number, extra: { fault?: string; account?: string } = {}) =>
      record({ at, method, path, status, durationMs: Math.round((performance.now() - started) * 100) / 100, ...extra });

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      let r: SandboxResponse;
      if (req.headers[HEADER.apiKey] !== undefined) {
        r = { status: 403, body: errorBody('The sandbox control surface does not accept exchange API keys') };
      } else if (!controlAllowed(req.headers)) {
        r = {
          status: 403,
          body: errorBody(
            'The sandbox control surface answers only requests to 127.0.0.1 from this machine (Host and Origin must be its own)',
          ),
        };
      } else {
        try {
          const body = req.rawBody.length ? (JSON.parse(req.rawBody.toString('utf8')) as unknown) : undefined;
          r = handleControl(control, method, path.slice(CONTROL_PREFIX.length), query, body);
        } catch (e) {
          if (e instanceof HttpError) r = { status: e.status, body: errorBody(e.message, e.extra) };
          else if (e instanceof SyntaxError || e instanceof URIError)
            r = { status: 400, body: errorBody(`Bad control request: ${e.message}`) };
          else throw e;
        }
      }
      await saveIfChanged();
      const out = answer(r);
      log(r.status);
      flushLateCommits();
      return out;
    }

    const decision = faults.decide(method, path);
    if (decision.latencyMs > 0) await wait(decision.latencyMs);
    if (closed) return { kind: 'drop' };
    const fault = decision.fault;
    const request: ApiRequest = {
      method,
      path,
      query,
      fullUrl: `${req.origin}${req.target}`,
      headers: req.headers,
      rawBody: req.rawBody,
    };
    switch (fault?.kind) {
      case 'error': {
        const status = fault.status ?? 500;
        log(status, { fault: fault.kind });
        return answer({ status, body: errorBody(fault.message ?? 'Internal server error (sandbox fault injection)') });
      }
      case 'rate_limit': {
        const retryAfter = String(fault.retryAfterSeconds ?? 1);
        log(429, { fault: fault.kind });
        return answer({
          status: 429,
          body: errorBody('Too many requests (sandbox fault injection)'),
          headers: { [HEADER.retryAfter]: retryAfter },
        });
      }
      case 'hang':
        // Never answered: the caller waits until it gives up or the sandbox closes.
        log(0, { fault: fault.kind });
        return { kind: 'hang' };
      case 'drop':
        log(0, { fault: fault.kind });
        return { kind: 'drop' };
      case 'late_commit': {
        const apiKey = req.headers[HEADER.apiKey];
        const account = (typeof apiKey === 'string' ? keys.lookup(apiKey)?.account : undefined) ?? DEFAULT_ACCOUNT;
        const pending = late.take({
          request,
          account,
          receivedAt: clock.now(),
          receivedAuthMs: apiDeps.authNow(),
          commitAfterMs: fault.commitAfterMs ?? DEFAULT_LATE_COMMIT_MS,
          dropNotes: decision.dropNotes,
        });
        watchLateCommits();
        // A repeat of this client_order_id is refused from now on, as the exchange would once it has the order.
        if (pending.clientOrderId !== undefined) {
          const owner = state.accounts.get(account);
          if (owner) owner.lateClientOrderIds = [...(owner.lateClientOrderIds ?? []), pending.clientOrderId];
        }
        await saveIfChanged();
        log(fault.answer === 'gateway_timeout' ? 504 : 0, { fault: fault.kind, account });
        if (fault.answer === 'drop') return { kind: 'drop' };
        if (fault.answer === 'gateway_timeout')
          return answer({ status: 504, body: errorBody('Gateway timeout (sandbox fault injection)') });
        return { kind: 'hang' };
      }
    }

    if (decision.pageSizeCap !== undefined) capPageSize(query, decision.pageSizeCap);
    let served: ReturnType<typeof serveApi>;
    try {
      served = serveApi(apiDeps, request, undefined, decision.dropNotes);
    } catch (e) {
      // A sandbox bug, not a client error: say so plainly (without request details).
      process.emitWarning(`sandbox: unhandled error on ${method} ${path}: ${(e as Error).stack ?? String(e)}`);
      log(500);
      return answer({ status: 500, body: errorBody('Sandbox internal error') });
    }
    const { response, account } = served;
    committed(request, account, response, clock.now());
    // Committed before anyone hears of it: a restart keeps what this answer says was done.
    await saveIfChanged();
    const meta = {
      ...(account ? { account } : {}),
      ...(fault ? { fault: fault.kind } : decision.dropNotes ? { fault: 'drop_notes' } : {}),
    };
    switch (fault?.kind) {
      case 'drop_after_commit':
        // The work is done (a withdrawal exists, an order is placed); the caller never hears.
        log(0, meta);
        return { kind: 'drop' };
      case 'hang_after_commit':
        // Done, and the answer never comes: the caller gives up.
        log(0, meta);
        return { kind: 'hang' };
      case 'error_after_commit': {
        // Done, and a gateway answers 5xx all the same.
        const status = fault.status ?? 502;
        log(status, meta);
        return answer({ status, body: errorBody(fault.message ?? 'Bad gateway (sandbox fault injection)') });
      }
      case 'malformed_json': {
        const text = JSON.stringify(response.body ?? {});
        log(response.status, meta);
        return answer(response, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      }
      case 'schema_break':
        log(response.status, meta);
        return answer({ ...response, body: breakShape(response.body) });
    }
    log(response.status, meta);
    return answer(response);
  }

  // A sandbox clock that follows real time reaches due commits by itself, with no request to flush them;
  // the timer runs only while a write waits, so an idle sandbox holds nothing alive.
  watchLateCommits();

  return {
    control,
    clock,
    keys,
    get state() {
      return state;
    },
    serve,
    close: async () => {
      closed = true;
      clearInterval(lateTimer);
      lateTimer = undefined;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // The last change is on disk before the sandbox says it has stopped (its failure was already warned of).
      await saving.catch(() => undefined);
    },
  };
}

/** The short_pages fault: a list asked for more than `cap` items a page serves `cap` (its X-Next-Page still leads on). */
function capPageSize(query: URLSearchParams, cap: number): void {
  const asked = query.get('page[size]');
  // A bad page[size] keeps its own 422.
  if (asked !== null && /^\d{1,15}$/.test(asked) && Number(asked) > cap) query.set('page[size]', String(cap));
}

/** What every sandbox shows of its core (its state read live, as control.reset() replaces it), on `outside`. */
export function showCore<T extends object>(
  core: SandboxCore,
  outside: T,
): T & Pick<SandboxCore, 'control' | 'clock' | 'keys' | 'state'> {
  return Object.defineProperties(outside, {
    control: { value: core.control, enumerable: true },
    clock: { value: core.clock, enumerable: true },
    keys: { value: core.keys, enumerable: true },
    state: { get: () => core.state, enumerable: true },
  }) as T & Pick<SandboxCore, 'control' | 'clock' | 'keys' | 'state'>;
}
