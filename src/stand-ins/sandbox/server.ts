// The sandbox exchange: a loopback node:http server with the public API under /public_api/v1, control
// under /_sandbox and fault injection in front of the API.
import { isFromThisMachine } from './local-only.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TIMESTAMP_WINDOW_MS } from '../../bot/exchange/assumptions.js';
import { HEADER } from '../../bot/exchange/protocol.js';
import { serveApi } from './api.js';
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
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
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
  /** The text an earlier run gave `save` (persist.ts): the sandbox continues from it instead of the seed (and its clock, unless `clock` is given). */
  restore?: string;
  /** Called after each change, one at a time: an answer that changed state goes out once its save resolved (a rejection fails it). */
  save?: (text: string) => void | Promise<void>;
}

export interface Sandbox {
  /** Base URL to give the client, e.g. http://127.0.0.1:53412 (paths start with /public_api/v1). */
  url: string;
  port: number;
  control: SandboxControl;
  clock: SandboxClock;
  keys: KeyRegistry;
  /** The live state (replaced by control.reset()). */
  readonly state: SandboxState;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;
const ACCESS_LOG_LIMIT = 5_000;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

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

/** Start the sandbox on 127.0.0.1 and resolve once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
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

  const send = (res: ServerResponse, r: SandboxResponse, rawText?: string) => {
    // The exchange's own clock, as a real exchange's Date header would show it (not the machine's).
    const headers: Record<string, string> = {
      'x-sandbox': '1',
      date: new Date(clock.now()).toUTCString(),
      ...r.headers,
    };
    if (r.status === 204 || (r.body === undefined && rawText === undefined)) {
      res.writeHead(r.status, headers).end();
      return;
    }
    const text = rawText ?? JSON.stringify(r.body);
    headers['content-type'] = `${r.contentType ?? 'application/json'}; charset=utf-8`;
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(r.status, headers).end(text);
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

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
  }

  afterClockMoved = flushLateCommits;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    flushLateCommits();
    const at = Date.now();
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    const log = (status: number, extra: { fault?: string; account?: string } = {}) =>
      record({ at, method, path, status, durationMs: Math.round((performance.now() - started) * 100) / 100, ...extra });

    let rawBody: Buffer;
    try {
      rawBody = await readBody(req);
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 400;
      if (!res.headersSent && !res.destroyed)
        send(res, { status, body: errorBody(e instanceof HttpError ? e.message : 'Could not read the request body') });
      log(status);
      return;
    }

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      let r: SandboxResponse;
      if (req.headers[HEADER.apiKey] !== undefined) {
        r = { status: 403, body: errorBody('The sandbox control surface does not accept exchange API keys') };
      } else if (!isFromThisMachine(req.headers, port)) {
        r = {
          status: 403,
          body: errorBody(
            'The sandbox control surface answers only requests to 127.0.0.1 from this machine (Host and Origin must be its own)',
          ),
        };
      } else {
        try {
          const body = rawBody.length ? (JSON.parse(rawBody.toString('utf8')) as unknown) : undefined;
          r = handleControl(control, method, path.slice(CONTROL_PREFIX.length), query, body);
        } catch (e) {
          if (e instanceof HttpError) r = { status: e.status, body: errorBody(e.message, e.extra) };
          else if (e instanceof SyntaxError || e instanceof URIError)
            r = { status: 400, body: errorBody(`Bad control request: ${e.message}`) };
          else throw e;
        }
      }
      await saveIfChanged();
      send(res, r);
      log(r.status);
      flushLateCommits();
      return;
    }

    const decision = faults.decide(method, path);
    if (decision.latencyMs > 0) await wait(decision.latencyMs);
    if (closed) return;
    const fault = decision.fault;
    switch (fault?.kind) {
      case 'error': {
        const status = fault.status ?? 500;
        send(res, { status, body: errorBody('Internal server error (sandbox fault injection)') });
        return log(status, { fault: fault.kind });
      }
      case 'rate_limit': {
        const retryAfter = String(fault.retryAfterSeconds ?? 1);
        send(res, {
          status: 429,
          body: errorBody('Too many requests (sandbox fault injection)'),
          headers: { [HEADER.retryAfter]: retryAfter },
        });
        return log(429, { fault: fault.kind });
      }
      case 'hang':
        // Never answered: the socket stays open until the client gives up or the sandbox closes.
        return log(0, { fault: fault.kind });
      case 'drop':
        req.socket.destroy();
        return log(0, { fault: fault.kind });
      case 'late_commit': {
        const apiKey = req.headers[HEADER.apiKey];
        const account = (typeof apiKey === 'string' ? keys.lookup(apiKey)?.account : undefined) ?? DEFAULT_ACCOUNT;
        const request = {
          method,
          path,
          query,
          fullUrl: `http://${req.headers.host ?? `127.0.0.1:${port}`}${target}`,
          headers: req.headers,
          rawBody,
        };
        const pending = late.take({
          request,
          account,
          receivedAt: clock.now(),
          receivedAuthMs: apiDeps.authNow(),
          commitAfterMs: fault.commitAfterMs ?? DEFAULT_LATE_COMMIT_MS,
          dropNotes: decision.dropNotes,
        });
        // A repeat of this client_order_id is refused from now on, as the exchange would once it has the order.
        if (pending.clientOrderId !== undefined) {
          const owner = state.accounts.get(account);
          if (owner) owner.lateClientOrderIds = [...(owner.lateClientOrderIds ?? []), pending.clientOrderId];
        }
        await saveIfChanged();
        if (fault.answer === 'drop') req.socket.destroy();
        else if (fault.answer === 'gateway_timeout')
          send(res, { status: 504, body: errorBody('Gateway timeout (sandbox fault injection)') });
        return log(fault.answer === 'gateway_timeout' ? 504 : 0, { fault: fault.kind, account });
      }
    }

    if (decision.pageSizeCap !== undefined) capPageSize(query, decision.pageSizeCap);
    let served: ReturnType<typeof serveApi>;
    try {
      served = serveApi(
        apiDeps,
        {
          method,
          path,
          query,
          fullUrl: `http://${req.headers.host ?? `127.0.0.1:${port}`}${target}`,
          headers: req.headers,
          rawBody,
        },
        undefined,
        decision.dropNotes,
      );
    } catch (e) {
      // A sandbox bug, not a client error: say so plainly (without request details).
      process.emitWarning(`sandbox: unhandled error on ${method} ${path}: ${(e as Error).stack ?? String(e)}`);
      send(res, { status: 500, body: errorBody('Sandbox internal error') });
      return log(500);
    }
    const { response, account } = served;
    // Committed before anyone hears of it: a restart keeps what this answer says was done.
    await saveIfChanged();
    const meta = {
      ...(account ? { account } : {}),
      ...(fault ? { fault: fault.kind } : decision.dropNotes ? { fault: 'drop_notes' } : {}),
    };
    switch (fault?.kind) {
      case 'drop_after_commit':
        // The work is done (a withdrawal exists, an order is placed); the caller never hears.
        req.socket.destroy();
        return log(0, meta);
      case 'malformed_json': {
        const text = JSON.stringify(response.body ?? {});
        send(res, response, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
        return log(response.status, meta);
      }
      case 'schema_break':
        send(res, { ...response, body: breakShape(response.body) });
        return log(response.status, meta);
    }
    send(res, response);
    log(response.status, meta);
  }

  // A sandbox clock that follows real time reaches due commits by itself, with no request to flush them.
  const lateTimer = setInterval(flushLateCommits, 200);
  lateTimer.unref();

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      process.emitWarning(`sandbox: request failed: ${(e as Error).message}`);
      if (!res.headersSent) res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    control,
    clock,
    keys,
    get state() {
      return state;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        closed = true;
        clearInterval(lateTimer);
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        // Hung and keep-alive connections would hold close() open forever.
        server.closeAllConnections();
      });
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
