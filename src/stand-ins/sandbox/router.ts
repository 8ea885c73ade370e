// Route table types, matching (`:param` segments under API_PREFIX) and the helpers routes answer with.
import type { z } from 'zod';
import type { Scope } from '../../bot/exchange/assumptions.js';
import type { AccountState, SandboxState } from './state.js';

export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Defaults to application/json. */
  contentType?: string;
}

/** A refusal with the exchange's error body `{"errors":[{"message"}]}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Refuse the request: `status` and one error message that says why. */
export function fail(status: number, message: string, extra?: Record<string, unknown>): never {
  throw new HttpError(status, message, extra);
}

export function errorBody(
  message: string,
  extra: Record<string, unknown> = {},
): { errors: Array<Record<string, unknown>> } {
  return { errors: [{ message, ...extra }] };
}

export const ok = (body: unknown, headers?: Record<string, string>): SandboxResponse => ({
  status: 200,
  body,
  ...(headers ? { headers } : {}),
});
export const created = (body: unknown): SandboxResponse => ({ status: 201, body });
export const noContent = (): SandboxResponse => ({ status: 204 });

export interface RouteContext {
  state: SandboxState;
  /** The authenticated account; undefined only on public routes. */
  account: AccountState;
  now: number;
  /** Set for a late commit: what the exchange checked on receipt (a quote's expiry) is checked at this time. */
  receivedAt?: number;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  settings: { quoteLifetimeMs: number };
  /** The drop_notes fault: a withdrawal made by this request keeps no note. */
  dropNotes: boolean;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after API_PREFIX, e.g. `/crypto/withdrawals/:id`. */
  path: string;
  /** `public` routes need no key (the spot price read). */
  auth: 'key' | 'public';
  /** Scope the key must carry (reference "Authentication" 2); reads need none beyond a registered key. */
  scope?: Scope;
  handler(ctx: RouteContext): SandboxResponse;
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | undefined;

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathKnown = true;
  }
  return pathKnown ? { methodNotAllowed: true } : undefined;
}

/** Parse `value` with `schema`, or refuse with 422 naming the first offending field. */
export function validate<T extends z.ZodType>(schema: T, value: unknown, what = 'body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const at = issue.path.length ? issue.path.join('.') : what;
  fail(422, `Invalid ${what}: ${at}: ${issue.message}`, { field: at });
}
