// The operations endpoints on HEALTH_PORT only, never on Slack's port, so /metrics (counts, roles)
// never reaches whoever can reach Slack's URL. (Socket Mode's receiver neither reports its port nor awaits close.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpsRoute } from './endpoints.js';
import { EDGE_SERVER_OPTIONS, limitServer } from '../ports/http-edge.js';

export interface HealthServer {
  /** The bound port (HEALTH_PORT=0 picks a free one). */
  port: number;
  close(): Promise<void>;
}

/** Listens on `host` (runBot: HEALTH_HOST); resolves once bound, rejects if it cannot bind. */
export async function startHealthServer(o: {
  port: number;
  host: string;
  routes: readonly OpsRoute[];
  maxConnections?: number;
}): Promise<HealthServer> {
  const byPath = new Map(o.routes.map((r) => [r.path, r]));
  const server: Server = createServer(EDGE_SERVER_OPTIONS, (req, res) => {
    const found = byPath.get((req.url ?? '').split('?')[0]!);
    if (found === undefined) {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else if (req.method !== found.method) {
      req.resume();
      res.writeHead(405, { allow: found.method, 'content-type': 'text/plain' }).end('method not allowed');
    } else {
      found.handler(req, res);
    }
  });
  limitServer(server, o.maxConnections);
  // A probe's connection must not keep a stopping process waiting.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
