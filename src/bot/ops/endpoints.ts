// The three operations endpoints as plain node:http handlers (the shape Bolt's customRoutes take).
// Never cached; a failing handler answers 500 with a fixed sentence, never the error's text.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Readiness } from './readiness.js';

export const OPS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

export interface OpsRoute {
  path: string;
  method: 'GET';
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface OpsEndpointSources {
  registry: Registry;
  readiness: () => Promise<Readiness>;
}

export function opsRoutes(s: OpsEndpointSources): OpsRoute[] {
  return [
    route(OPS_PATHS.health, async (res) => json(res, 200, { status: 'ok' })),
    route(OPS_PATHS.ready, async (res) => {
      const r = await s.readiness();
      json(res, r.ready ? 200 : 503, r);
    }),
    route(OPS_PATHS.metrics, async (res) => {
      const text = await s.registry.metrics();
      res.writeHead(200, { 'content-type': s.registry.contentType, 'cache-control': 'no-store' }).end(text);
    }),
  ];
}

function route(path: string, answer: (res: ServerResponse) => Promise<void>): OpsRoute {
  return {
    path,
    method: 'GET',
    handler: (req, res) => {
      req.resume();
      answer(res).catch(() => {
        if (!res.headersSent) json(res, 500, { error: `${path} failed` });
        else res.destroy();
      });
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .end(JSON.stringify(body));
}
