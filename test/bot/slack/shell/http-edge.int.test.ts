/**
 * The HTTP edge of the bot in HTTP mode (slack-app.ts, ports/http-edge.ts), with real slow sockets
 * against Bolt's real receiver: a body larger than Slack sends is refused unread, a client that
 * stalls mid-headers or mid-body (or sends nothing) is cut off within the request timeout, the
 * bodies beyond the budget of unverified bodies are refused at once (the connection cap is the
 * same limitServer as the health server's: test/bot/ops/health-edge.int.test.ts), and requests that were never verified do not
 * count in the ack gate, so a verified request's follow-up work does not wait for them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer } from '../../../../src/bot/ops/health-server.js';
import { HTTP_EDGE } from '../../../../src/bot/ports/http-edge.js';
import { SLACK_BODY_BUDGET_BYTES } from '../../../../src/bot/slack/shell/body-budget.js';
import { EVENTS_PATH, SLACK_BODY_LIMIT_BYTES } from '../../../../src/bot/slack/shell/slack-app.js';
import { closeSlowSockets, open, postHead, within } from '../../../support/slow-sockets.js';
import { parseExposition } from '../../ops/support/prometheus-text.js';
import { fakeExchange, PEOPLE, startHarness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  closeSlowSockets();
  for (const c of cleanups.splice(0)) await c();
  await h?.stop();
  h = undefined;
});

async function start(): Promise<{ h: Harness; port: number }> {
  h = await startHarness({ exchange: fakeExchange({ listBalances: async () => [] }) });
  return { h, port: Number(new URL(h.slack.endpoint).port) };
}

describe('the HTTP edge in HTTP mode', () => {
  it('refuses a body declared larger than Slack sends with 413, without reading it', async () => {
    const { port } = await start();
    const c = await open(port, postHead(EVENTS_PATH, 4 * 1024 * 1024 - 1));
    c.socket.write('x'.repeat(64 * 1024));
    await expect.poll(() => c.received(), { timeout: 2_000 }).toMatch(/^HTTP\/1\.1 413 /);
    // Closed too: the rest of the body is never read.
    expect(await within(c, 1_000)).toBe('closed');
    expect(SLACK_BODY_LIMIT_BYTES).toBeLessThan(4 * 1024 * 1024);
  });

  it('cuts off, within the request timeout, clients that stall in the headers, in the body, or send nothing', async () => {
    const { port } = await start();
    const stalls = await Promise.all([
      open(port, `POST ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty`),
      open(port, postHead(EVENTS_PATH, 200 * 1024) + 'payload=' + 'x'.repeat(10 * 1024)),
      open(port),
    ]);
    // Node's defaults would hold them for 60 s (headers) and 300 s (body); the bounds plus one check.
    const bound = HTTP_EDGE.requestTimeoutMs + 3 * HTTP_EDGE.checkEveryMs;
    expect(await Promise.all(stalls.map((s) => within(s, bound)))).toEqual(['closed', 'closed', 'closed']);
    // The one that sent its headers is told why (408); the others had no request to answer.
    expect(stalls[1].received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it('refuses at once, with 503, a body that would pass the budget of bodies read before their signatures are checked', async () => {
    const { h, port } = await start();
    const fit = Math.floor(SLACK_BODY_BUDGET_BYTES / SLACK_BODY_LIMIT_BYTES);
    const reading = await Promise.all(
      Array.from({ length: fit }, () => open(port, postHead(EVENTS_PATH, SLACK_BODY_LIMIT_BYTES) + 'payload=')),
    );
    // Without a length a body counts the whole limit.
    const chunked = await open(
      port,
      `POST ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n4\r\npayl\r\n`,
    );
    await expect.poll(() => chunked.received(), { timeout: 2_000 }).toMatch(/^HTTP\/1\.1 503 /);
    expect(await within(chunked, 1_000)).toBe('closed');
    expect(reading.every((c) => c.received() === '')).toBe(true);
    // A small signed request does not fit either while they hold the budget; once they are gone it does.
    expect(
      (
        await h.slack.command({
          command: '/balances',
          userId: PEOPLE.requester,
          responseUrl: h.fake.responseUrl('full'),
        })
      ).status,
    ).toBe(503);
    for (const c of reading) c.socket.destroy();
    await Promise.all(reading.map((c) => c.closed));
    await expect
      .poll(
        async () =>
          (
            await h.slack.command({
              command: '/balances',
              userId: PEOPLE.requester,
              responseUrl: h.fake.responseUrl('room'),
            })
          ).status,
        { timeout: 2_000 },
      )
      .toBe(200);
  });

  it('counts only verified requests in the ack gate: stalled unsigned requests hold no listener back', async () => {
    const { h, port } = await start();
    const gate = h.app.ackGate;
    const stalled = await Promise.all(
      Array.from({ length: 5 }, () => open(port, postHead(EVENTS_PATH, 2_000) + 'payload=%7B')),
    );
    // Bolt reads them as far as they go (and would wait for the rest until the request timeout).
    await new Promise((r) => setTimeout(r, 200));
    expect(stalled.every((s) => s.received() === '')).toBe(true);
    expect(gate.waiting).toBe(0);

    // A verified request is counted from its verification until its ack leaves (its latency is
    // measured then, from its arrival), then released; its follow-up work runs.
    const health = await startHealthServer({ port: 0, host: '127.0.0.1', routes: h.desk.ops.routes });
    cleanups.push(() => health.close());
    const acks = async () =>
      parseExposition(await (await fetch(`http://127.0.0.1:${health.port}/metrics`)).text()).value(
        'desk_slack_ack_duration_seconds_count',
      );
    const done = h.fake.waitFor((c) => c.method === 'response_url' && c.responseUrlId === 'gate', { timeoutMs: 3_000 });
    const res = await h.slack.command({
      command: '/balances',
      userId: PEOPLE.requester,
      responseUrl: h.fake.responseUrl('gate'),
    });
    expect(res.status).toBe(200);
    await done;
    expect(gate.waiting).toBe(0);
    expect(await acks()).toBe(1);
  });
});
