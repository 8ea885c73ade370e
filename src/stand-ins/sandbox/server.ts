// The sandbox exchange on loopback node:http: the public API under /public_api/v1, control under
// /_sandbox (this machine only), faults in front of the API; what it answers is core.ts's.
import { isFromThisMachine } from './local-only.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxClock } from './sandbox-clock.js';
import type { SandboxControl } from './control.js';
import { createSandboxCore, showCore, type SandboxOptions } from './core.js';
import type { KeyRegistry } from './keys.js';
import { errorBody, HttpError } from './router.js';
import type { SandboxState } from './state.js';

export type { SandboxOptions } from './core.js';

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

/** Start the sandbox on 127.0.0.1 and resolve once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const core = createSandboxCore(options);
  const controlAllowed = (headers: IncomingMessage['headers']) => isFromThisMachine(headers, port);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req);
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 400;
      const message = e instanceof HttpError ? e.message : 'Could not read the request body';
      if (!res.headersSent && !res.destroyed)
        res
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(errorBody(message)));
      return;
    }
    const outcome = await core.serve(
      {
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        origin: `http://${req.headers.host ?? `127.0.0.1:${port}`}`,
        headers: req.headers,
        rawBody,
      },
      controlAllowed,
    );
    // A hung request keeps its socket open until the client gives up or the sandbox closes.
    if (outcome.kind === 'hang') return;
    if (outcome.kind === 'drop') return void req.socket.destroy();
    if (res.destroyed) return;
    res.writeHead(outcome.status, outcome.headers).end(outcome.text);
  }

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

  return showCore(core, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Hung and keep-alive connections would hold close() open forever.
      server.closeAllConnections();
      await core.close();
      await closed;
    },
  });
}
