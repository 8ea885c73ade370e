/**
 * A stand-in for the local desk's server, for testing the page alone: it serves the page (bundled
 * with the server's own page-build.ts and page-shell.ts), speaks the protocol (protocol.ts) with snapshots the
 * test sets, pushes them over SSE, records every POST and answers as the test says. The real
 * server (the workspace fold, signed requests to the bot) is tested on its own.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundlePage } from '../../../src/stand-ins/local-desk/server/page-build.js';
import { PAGE_HTML } from '../../../src/stand-ins/local-desk/server/page-shell.js';
import { ROUTES, type SandboxState, type Snapshot } from '../../../src/stand-ins/local-desk/protocol.js';

export interface Post {
  /** The part after /desk/api/: "action", "submit", "sandbox/advance" … */
  name: string;
  body: Record<string, unknown>;
}

export interface FixtureLocalDesk {
  url: string;
  posts: Post[];
  /** The `as` of every events connection, in order ("" when none was given). */
  connections: string[];
  /** Answer a POST: return an answer to send, or undefined for { ok: true }. */
  answer: (post: Post) => unknown;
  sandbox: SandboxState;
  /** Set a person's snapshot (version bumped) and push it to their open pages. */
  show(personId: string, snapshot: Omit<Snapshot, 'version'>): void;
  /** Change a person's snapshot in place and push it. */
  update(personId: string, change: (s: Snapshot) => Omit<Snapshot, 'version'>): void;
  /** End every open events stream, as a restarting server would. */
  dropStreams(): void;
  /** The first POST (after index `from`) that matches, waiting for it. */
  waitForPost(match: (p: Post) => boolean, from?: number, timeoutMs?: number): Promise<Post>;
  close(): Promise<void>;
}

export async function startFixtureLocalDesk(defaultPerson: string, sandbox: SandboxState): Promise<FixtureLocalDesk> {
  const bundle = await bundlePage({ minify: false });
  const snapshots = new Map<string, Snapshot>();
  const streams = new Map<string, Set<ServerResponse>>();
  let version = 0;

  const push = (personId: string) => {
    const s = snapshots.get(personId);
    if (!s) return;
    for (const res of streams.get(personId) ?? []) res.write(`event: snapshot\ndata: ${JSON.stringify(s)}\n\n`);
  };

  const desk: FixtureLocalDesk = {
    url: '',
    posts: [],
    connections: [],
    answer: () => undefined,
    sandbox,
    show(personId, snapshot) {
      snapshots.set(personId, { ...snapshot, version: ++version });
      push(personId);
    },
    update(personId, change) {
      const current = snapshots.get(personId);
      if (!current) throw new Error(`no snapshot for ${personId}`);
      desk.show(personId, change(current));
    },
    dropStreams() {
      for (const set of streams.values()) for (const res of set) res.end();
    },
    async waitForPost(match, from = 0, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = desk.posts.slice(from).find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching POST; got ${JSON.stringify(desk.posts.slice(from))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === ROUTES.page)
      return send(res, 200, 'text/html; charset=utf-8', PAGE_HTML);
    if (req.method === 'GET' && url.pathname === ROUTES.bundle)
      return send(res, 200, 'text/javascript; charset=utf-8', bundle.js);
    if (req.method === 'GET' && url.pathname === ROUTES.styles)
      return send(res, 200, 'text/css; charset=utf-8', bundle.css);
    if (req.method === 'GET' && url.pathname === ROUTES.events) {
      const as = url.searchParams.get('as') ?? '';
      desk.connections.push(as);
      const person = as || defaultPerson;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.write('retry: 300\n\n');
      const set = streams.get(person) ?? new Set();
      streams.set(person, set.add(res));
      req.on('close', () => set.delete(res));
      push(person);
      return;
    }
    if (req.method === 'GET' && url.pathname === ROUTES.sandbox)
      return send(res, 200, 'application/json', JSON.stringify(desk.sandbox));
    if (req.method === 'POST' && url.pathname.startsWith(ROUTES.api)) {
      const post: Post = {
        name: url.pathname.slice(ROUTES.api.length),
        body: JSON.parse(await readBody(req)) as Record<string, unknown>,
      };
      desk.posts.push(post);
      return send(res, 200, 'application/json', JSON.stringify(desk.answer(post) ?? { ok: true }));
    }
    send(res, 404, 'text/plain', 'not found');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  desk.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return desk;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type }).end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
