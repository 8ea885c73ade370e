// The local desk over HTTP on 127.0.0.1: the page, its assets, `snapshot` events, and POST /desk/api/* (protocol.ts).
// Only requests naming this server by loopback host and coming from its own page are read, POSTs JSON only,
// so no other page on the machine can drive desk or sandbox; no secret is ever served.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZodError } from 'zod';
import { ROUTES } from '../protocol.js';
import { LocalDeskRequestError, type LocalDeskActions } from './local-desk-actions.js';
import type { PageAssets } from './page-build.js';
import { PAGE_HTML, PAGE_SECURITY_HEADERS } from './page-shell.js';
import { isRequestName, isSandboxOpName, REQUEST_BODIES } from './request-bodies.js';
import { runSandboxOp, type PanelSandbox } from './sandbox-panel.js';
import { SnapshotStreams } from './snapshot-stream.js';
import type { Workspace } from './workspace.js';

export const LOCAL_DESK_HOST = '127.0.0.1';
/** Larger bodies are refused (a modal's whole state is a few KB). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface LocalDeskServerOptions {
  ws: Workspace;
  assets: PageAssets;
  /** 0: a free port. */
  port: number;
  /** The one definition the sandbox's control uses too (sandbox/local-only.ts), given by the composition. */
  fromThisMachine: (headers: IncomingHttpHeaders, port: number) => boolean;
  keepAliveMs?: number;
  /** The bot's HTTP limits (timeouts, connection cap: ports/http-edge.ts), given by the composition. */
  edge: ServerEdge;
  /** Where unexpected failures are said (default: stderr). */
  logError?: (message: string) => void;
}

/** Server options at creation, and the limits set on the server after it. */
export interface ServerEdge {
  options: ServerOptions;
  limit(server: Server): void;
}

/** What the desk drives, known once the bot is up (the page is served before). */
export interface LocalDeskBackends {
  actions: LocalDeskActions;
  sandbox: PanelSandbox | undefined;
}

export interface LocalDeskServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  port: number;
  streams: SnapshotStreams;
  attach(backends: LocalDeskBackends): void;
  close(): Promise<void>;
}

export async function startLocalDeskServer(o: LocalDeskServerOptions): Promise<LocalDeskServer> {
  const streams = new SnapshotStreams(o.ws, o.keepAliveMs);
  const logError = o.logError ?? ((m: string) => console.error(m));
  let backends: LocalDeskBackends | undefined;
  let port = 0;

  const server: Server = createServer(o.edge.options, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      logError(
        `local desk: ${req.method} ${req.url?.split('?')[0]} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      if (!res.headersSent) json(res, 500, { ok: false, error: 'internal error of the local desk (see its log)' });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!o.fromThisMachine(req.headers, port)) {
      req.resume();
      return text(
        res,
        403,
        `Refused: the local desk answers only its own page at http://${LOCAL_DESK_HOST}:${port}/ (Host and Origin must name it).`,
      );
    }
    const url = new URL(req.url ?? '/', `http://${LOCAL_DESK_HOST}`);
    const path = url.pathname;
    if (req.method === 'GET') {
      req.resume();
      switch (path) {
        case ROUTES.page:
          return send(res, 200, 'text/html; charset=utf-8', PAGE_HTML, PAGE_SECURITY_HEADERS);
        case ROUTES.bundle:
          return send(res, 200, 'text/javascript; charset=utf-8', o.assets.js);
        case ROUTES.styles:
          return send(res, 200, 'text/css; charset=utf-8', o.assets.css);
        case ROUTES.events: {
          const as = url.searchParams.get('as') || o.ws.defaultPerson;
          if (!o.ws.isPerson(as)) return json(res, 400, { ok: false, error: `no one on this desk is "${as}"` });
          return streams.add(res, as);
        }
        case ROUTES.sandbox: {
          const sandbox = backends?.sandbox;
          if (!sandbox)
            return json(res, backends ? 404 : 503, {
              ok: false,
              error: backends ? 'this run has no sandbox' : 'the bot is still starting',
            });
          return json(res, 200, sandbox.state());
        }
        default:
          return text(res, 404, 'Not found');
      }
    }
    if (req.method !== 'POST') {
      req.resume();
      return text(res, 405, 'Method not allowed');
    }
    if ((req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      req.resume();
      return json(res, 415, { ok: false, error: 'send JSON (content-type: application/json)' });
    }
    const body = await readJson(req);
    if (body === INVALID) return json(res, 400, { ok: false, error: 'the body is not JSON (or larger than 1 MB)' });
    if (!backends) return json(res, 503, { ok: false, error: 'the bot is still starting' });

    if (path.startsWith(`${ROUTES.sandbox}/`)) {
      const op = path.slice(ROUTES.sandbox.length + 1);
      if (!isSandboxOpName(op)) return json(res, 404, { ok: false, error: `no sandbox operation "${op}"` });
      if (!backends.sandbox) return json(res, 404, { ok: false, error: 'this run has no sandbox' });
      try {
        return json(res, 200, runSandboxOp(backends.sandbox, op, body));
      } catch (err) {
        return json(res, err instanceof ZodError ? 400 : 422, { ok: false, error: problem(err) });
      }
    }
    if (path.startsWith(ROUTES.api)) {
      const name = path.slice(ROUTES.api.length);
      if (!isRequestName(name)) return json(res, 404, { ok: false, error: `no request "${name}"` });
      const checked = REQUEST_BODIES[name].safeParse(body);
      if (!checked.success) return json(res, 400, { ok: false, error: problem(checked.error) });
      try {
        // The schema of `name` checked the body of `name`.
        const answer = await (backends.actions[name] as (r: unknown) => Promise<unknown>)(checked.data);
        return json(res, 200, answer);
      } catch (err) {
        if (err instanceof LocalDeskRequestError) return json(res, err.status, { ok: false, error: err.message });
        throw err;
      }
    }
    return text(res, 404, 'Not found');
  }

  o.edge.limit(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, LOCAL_DESK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${LOCAL_DESK_HOST}:${port}/`,
    port,
    streams,
    attach(b) {
      backends = b;
    },
    async close() {
      streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const INVALID = Symbol('invalid body');

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(INVALID);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(INVALID);
      }
    });
    req.on('error', () => resolve(INVALID));
  });
}

function problem(err: unknown): string {
  if (err instanceof ZodError) return err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
  return err instanceof Error ? err.message : String(err);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string): void {
  send(res, status, 'text/plain; charset=utf-8', body);
}
