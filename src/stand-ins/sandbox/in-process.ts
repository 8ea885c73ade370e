// The sandbox with no socket: a WHATWG `fetch` that hands each request to core.ts in this process, so
// the real client (signing, paging, status mapping) talks to the real sandbox rules in a unit test.
import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxClock } from './sandbox-clock.js';
import type { SandboxControl } from './control.js';
import { createSandboxCore, showCore, type SandboxOptions } from './core.js';
import type { KeyRegistry } from './keys.js';
import type { SandboxState } from './state.js';

/** The origin the in-process sandbox answers on; nothing listens there. */
export const IN_PROCESS_ORIGIN = 'http://sandbox.in-process';

export interface InProcessSandbox {
  url: string;
  /** Give this to the exchange client as its `fetch`. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  control: SandboxControl;
  clock: SandboxClock;
  keys: KeyRegistry;
  readonly state: SandboxState;
  close(): Promise<void>;
}

/** A connection cut, as undici reports one (the client calls it a network failure). */
function connectionLost(): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }),
  });
}

/** A sandbox answering `fetch` calls to IN_PROCESS_ORIGIN; `port` is ignored. */
export function openSandbox(options: Omit<SandboxOptions, 'port'> = {}): InProcessSandbox {
  const core = createSandboxCore(options);
  const hung = new Set<() => void>();

  async function fetch(url: string, init: RequestInit): Promise<Response> {
    const { origin, pathname, search } = new URL(url);
    if (origin !== IN_PROCESS_ORIGIN) throw connectionLost();
    const headers: IncomingHttpHeaders = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    headers.host = new URL(IN_PROCESS_ORIGIN).host;
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string')
      throw new TypeError('the in-process sandbox takes string bodies only');
    // The target as sent: the signature covers the URL byte for byte (the client encodes it already).
    const target = url.slice(origin.length) || `${pathname}${search}`;
    init.signal?.throwIfAborted();
    const outcome = await core.serve(
      { method: init.method ?? 'GET', target, origin, headers, rawBody: Buffer.from(body ?? '', 'utf8') },
      () => true,
    );
    if (outcome.kind === 'drop') throw connectionLost();
    if (outcome.kind === 'hang') {
      // No answer: the caller's abort (its timeout) or the sandbox closing ends the wait.
      return new Promise<Response>((_, reject) => {
        const give = () => {
          hung.delete(give);
          const reason: unknown = init.signal?.reason;
          reject(reason instanceof Error ? reason : connectionLost());
        };
        hung.add(give);
        init.signal?.addEventListener('abort', give, { once: true });
      });
    }
    const nullBody = outcome.status === 204 || outcome.text === undefined;
    return new Response(nullBody ? null : outcome.text, { status: outcome.status, headers: outcome.headers });
  }

  return showCore(core, {
    url: IN_PROCESS_ORIGIN,
    fetch,
    close: async () => {
      for (const give of [...hung]) give();
      await core.close();
    },
  });
}
