/**
 * The health server's HTTP edge (ops/health-server.ts with ports/http-edge.ts), with real slow
 * sockets: a client that stalls in its headers or body is cut off within the request timeout,
 * and connections beyond the cap are closed at once while a probe still gets its answer after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../../../src/bot/ops/health-server.js';
import { opsRoutes } from '../../../src/bot/ops/endpoints.js';
import { HTTP_EDGE } from '../../../src/bot/ports/http-edge.js';
import { Registry } from 'prom-client';
import { closeSlowSockets, open, postHead, within } from '../../support/slow-sockets.js';

let server: HealthServer | undefined;
afterEach(async () => {
  closeSlowSockets();
  await server?.close();
  server = undefined;
});

async function start(maxConnections?: number): Promise<HealthServer> {
  const readiness = async () => ({ ready: true, role: 'leader' as const, failing: [], checks: {} as never });
  server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    routes: opsRoutes({ registry: new Registry(), readiness }),
    ...(maxConnections ? { maxConnections } : {}),
  });
  return server;
}

describe('the health server edge', () => {
  it('cuts off clients that stall in the headers or the body within the request timeout', async () => {
    const { port } = await start();
    const stalls = await Promise.all([
      open(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow'),
      open(port, postHead('/healthz', 10_000) + 'x'.repeat(100)),
    ]);
    const bound = HTTP_EDGE.requestTimeoutMs + 3 * HTTP_EDGE.checkEveryMs;
    expect(await Promise.all(stalls.map((s) => within(s, bound)))).toEqual(['closed', 'closed']);
  }, 20_000);

  it('closes connections beyond the cap at once, and answers a probe once they are gone', async () => {
    // A small cap: opening thousands of sockets on a busy machine outlasts the headers timeout.
    const cap = 16;
    const { port } = await start(cap);
    const held = await Promise.all(Array.from({ length: cap }, () => open(port)));
    const beyond = await open(port);
    expect(await within(beyond, HTTP_EDGE.headersTimeoutMs / 2)).toBe('closed');
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 20_000);
});
