// One public API request from the wire to a SandboxResponse: route, catch up with the clock,
// authenticate, check scope, parse, run. No HTTP here: server.ts does sockets and faults.
import type { IncomingHttpHeaders } from 'node:http';
import { SCOPE_FAILURE_STATUS } from '../../bot/exchange/assumptions.js';
import { API_PREFIX } from '../../bot/exchange/protocol.js';
import { authenticate } from './auth.js';
import type { SandboxClock } from './sandbox-clock.js';
import type { KeyRegistry } from './keys.js';
import { settle } from './lifecycle.js';
import { errorBody, HttpError, matchRoute, type SandboxResponse } from './router.js';
import { ROUTES } from './routes/index.js';
import { addAccount, DEFAULT_ACCOUNT } from './seed.js';
import type { SandboxState } from './state.js';

export interface ApiDeps {
  state(): SandboxState;
  clock: SandboxClock;
  keys: KeyRegistry;
  /** Clock the X-API-Timestamp window is checked against. */
  authNow(): number;
  timestampWindowMs: number;
  quoteLifetimeMs: number;
}

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  fullUrl: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

const refuse = (status: number, message: string, extra?: Record<string, unknown>): SandboxResponse => ({
  status,
  body: errorBody(message, extra),
});

/** Serve one request of the public API; `account` is set once the key is known (for the log). `dropNotes`: the drop_notes fault (faults.ts). */
export function serveApi(
  deps: ApiDeps,
  req: ApiRequest,
  receivedAt?: number,
  dropNotes = false,
): { response: SandboxResponse; account?: string } {
  if (!req.path.startsWith(`${API_PREFIX}/`)) return { response: refuse(404, `No such path ${req.path}`) };
  const match = matchRoute(ROUTES, req.method, req.path.slice(API_PREFIX.length));
  if (!match) return { response: refuse(404, `No operation at ${req.path}`) };
  if ('methodNotAllowed' in match) return { response: refuse(405, `${req.method} is not allowed on ${req.path}`) };
  const { route, params } = match;

  const state = deps.state();
  const now = deps.clock.now();
  settle(state, now);

  let accountName = DEFAULT_ACCOUNT;
  if (route.auth === 'key') {
    const auth = authenticate(req, deps.keys, deps.authNow(), deps.timestampWindowMs);
    if (!auth.ok) return { response: refuse(401, auth.message, auth.extra) };
    if (route.scope && !auth.key.scopes.has(route.scope)) {
      return {
        response: refuse(SCOPE_FAILURE_STATUS, `API key lacks the '${route.scope}' scope this operation needs`),
        account: auth.key.account,
      };
    }
    accountName = auth.key.account;
  }
  const account = state.accounts.get(accountName) ?? addAccount(state, accountName, now);

  let body: unknown;
  if (req.rawBody.length > 0) {
    try {
      body = JSON.parse(req.rawBody.toString('utf8'));
    } catch {
      return { response: refuse(400, 'Request body is not valid JSON'), account: accountName };
    }
  }
  try {
    const response = route.handler({
      state,
      account,
      now,
      ...(receivedAt !== undefined ? { receivedAt } : {}),
      params,
      query: req.query,
      body,
      settings: { quoteLifetimeMs: deps.quoteLifetimeMs },
      dropNotes,
    });
    return { response, account: accountName };
  } catch (e) {
    if (e instanceof HttpError)
      return {
        response: { status: e.status, body: errorBody(e.message, e.extra), headers: e.headers },
        account: accountName,
      };
    throw e;
  }
}
