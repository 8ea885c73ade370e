/**
 * The local desk's HTTP surface, over real HTTP with the real bot behind it: the page and its
 * bundle, the server-sent snapshots, the sandbox panel, and what it refuses: any request that does
 * not name the desk by its loopback host and port or comes from another origin (DNS rebinding, a
 * cross-site POST), a POST that is not JSON. And nothing served carries the bot's secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState, Snapshot } from '../../../src/stand-ins/local-desk/protocol.js';
import { PANEL_FAULTS, ROUTES } from '../../../src/stand-ins/local-desk/protocol.js';
import { HTTP_EDGE } from '../../../src/bot/ports/http-edge.js';
import { closeSlowSockets, open, postHead, within } from '../../support/slow-sockets.js';
import { rawRequest, said, startTestLocalDesk, WHO, type TestLocalDesk } from './support/desk.js';

let d: TestLocalDesk;
beforeAll(async () => {
  d = await startTestLocalDesk({ keepAliveMs: 100 });
});
afterAll(async () => {
  await d?.stop();
});

/** Reads server-sent events from a stream, one `snapshot` at a time. */
class EventReader {
  #buffer = '';
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next snapshot that satisfies `ok` (earlier ones are skipped). */
  async next(ok: (s: Snapshot) => boolean = () => true): Promise<Snapshot> {
    for (;;) {
      let end: number;
      while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const lines = block.split('\n');
        if (!lines.includes('event: snapshot')) continue;
        const data = lines.find((l) => l.startsWith('data: '))!.slice('data: '.length);
        const snapshot = JSON.parse(data) as Snapshot;
        expect(lines).toContain(`id: ${snapshot.version}`);
        if (ok(snapshot)) return snapshot;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error('the event stream ended');
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

describe('the local desk over HTTP', () => {
  it('serves the page shell, its script and its styles on 127.0.0.1', async () => {
    expect(d.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await rawRequest(d.origin, ROUTES.page);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="app"></div>');
    expect(page.body).toContain(`src="${ROUTES.bundle}"`);
    expect(page.body).toContain(`href="${ROUTES.styles}"`);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const script = await rawRequest(d.origin, ROUTES.bundle);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    // Bundled: preact is inside, nothing is left to resolve in the browser.
    expect(script.body.length).toBeGreaterThan(1_000);
    expect(script.body).not.toMatch(/from\s*["']preact/);
    const styles = await rawRequest(d.origin, ROUTES.styles);
    expect(styles.status).toBe(200);
    expect(styles.headers['content-type']).toContain('text/css');
  });

  it("streams the person's snapshot at once and again after every change", async () => {
    const res = await fetch(`${d.origin}${ROUTES.events}?as=${WHO.trader}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = new EventReader(res.body!);
    try {
      const first = await events.next();
      expect(first.me).toBe(WHO.trader);
      expect(first.people.map((p) => p.name)).toContain('Tara Trader');
      expect(first.channels.map((c) => c.name)).toEqual(['desk', 'desk-approvals', 'compliance', 'Desk Bot']);

      expect((await d.api('command', { as: WHO.trader, channel: WHO.deskChannel, text: '/balances' })).json).toEqual({
        ok: true,
      });
      const answered = await events.next((s) => s.messages.some((m) => m.ephemeral && said(m).includes('BTC')));
      expect(answered.version).toBeGreaterThan(first.version);
    } finally {
      await events.cancel();
    }
  });

  it('keeps an idle stream alive with comment lines', async () => {
    const res = await fetch(`${d.origin}${ROUTES.events}?as=${WHO.outsider}`);
    const reader = res.body!.getReader();
    let text = '';
    try {
      while (!text.includes(': keep-alive\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    } finally {
      await reader.cancel();
    }
    expect(text.startsWith('retry: 1000\n\nevent: snapshot\n')).toBe(true);
  });

  it("streams the cast's first person (the trader) when the page names no one: the address npm start prints opens a desk", async () => {
    const res = await fetch(`${d.origin}${ROUTES.events}`);
    expect(res.status).toBe(200);
    const events = new EventReader(res.body!);
    try {
      expect((await events.next()).me).toBe(WHO.trader);
    } finally {
      await events.cancel();
    }
  });

  it('refuses an event stream for no one', async () => {
    expect((await rawRequest(d.origin, `${ROUTES.events}?as=UNOBODY0001`)).status).toBe(400);
  });

  it('the sandbox panel: state, a price, a fault, a deposit that reaches #compliance, and clearing', async () => {
    const state = (await d.get(ROUTES.sandbox)).json as SandboxState;
    expect(state.prices.map((p) => p.symbol)).toContain('BTC-USD');
    expect(state.currencies).toEqual(expect.arrayContaining(['BTC', 'USDT (ERC20)', 'USDT (TRC20)']));
    expect(state.faults).toEqual([]);

    const priced = await d.post(`${ROUTES.sandbox}/price`, { symbol: 'BTC-USD', price: '70000' });
    expect(priced.status).toBe(200);
    expect(Number((priced.json as SandboxState).prices.find((p) => p.symbol === 'BTC-USD')!.price)).toBeCloseTo(
      70_000,
      -2,
    );

    const faulted = await d.post(`${ROUTES.sandbox}/fault`, {
      fault: 'lost_answer' satisfies keyof typeof PANEL_FAULTS,
      on: 'withdrawals',
      times: 1,
    });
    expect((faulted.json as SandboxState).faults).toEqual([
      'lost answer on POST /crypto/withdrawals, next 1',
      'lost answer on POST /fiat/withdrawals, next 1',
    ]);
    expect(((await d.post(`${ROUTES.sandbox}/clear-faults`, {})).json as SandboxState).faults).toEqual([]);

    const before = d.snapshot(WHO.compliance).messages.filter((m) => m.channel === WHO.complianceChannel).length;
    expect(
      (
        await d.post(`${ROUTES.sandbox}/deposit`, {
          currency: 'USDT (TRC20)',
          amount: '4321',
          needsCounterpartyInfo: true,
        })
      ).status,
    ).toBe(200);
    await d.until(
      WHO.compliance,
      (s) =>
        s.messages.filter((m) => m.channel === WHO.complianceChannel).length > before &&
        s.messages.some((m) => said(m).includes('4,321')),
      'the deposit in #compliance',
    );

    expect(
      await d.post(`${ROUTES.sandbox}/deposit`, { currency: 'DOGE', amount: '1', needsCounterpartyInfo: false }),
    ).toMatchObject({ status: 422, json: { ok: false, error: expect.stringContaining('No currency DOGE') } });
    expect(await d.post(`${ROUTES.sandbox}/advance`, { ms: -5 })).toMatchObject({ status: 400, json: { ok: false } });
    expect(await d.post(`${ROUTES.sandbox}/teleport`, {})).toMatchObject({ status: 404 });
  });

  it('refuses any request that does not name the desk by its loopback host, or comes from another origin', async () => {
    const clock = () => d.preview.runOptions.clock.now();
    const port = d.localDesk.port;
    const advance = JSON.stringify({ ms: 3_600_000 });
    const command = JSON.stringify({ as: WHO.trader, channel: WHO.deskChannel, text: '/balances' });
    const json = { 'content-type': 'application/json' };
    const before = clock();
    const attempts: { path: string; method: string; headers: Record<string, string>; body?: string }[] = [
      // DNS rebinding: the right address under a name the desk is not.
      {
        path: `${ROUTES.sandbox}/advance`,
        method: 'POST',
        headers: { ...json, host: `evil.example:${port}` },
        body: advance,
      },
      {
        path: `${ROUTES.api}command`,
        method: 'POST',
        headers: { ...json, host: `evil.example:${port}` },
        body: command,
      },
      { path: ROUTES.sandbox, method: 'GET', headers: { host: `evil.example:${port}` } },
      { path: `${ROUTES.events}?as=${WHO.trader}`, method: 'GET', headers: { host: `evil.example:${port}` } },
      { path: ROUTES.page, method: 'GET', headers: { host: `127.0.0.1:${port + 1}` } },
      // Another web page open on this machine: its Origin.
      {
        path: `${ROUTES.sandbox}/advance`,
        method: 'POST',
        headers: { ...json, origin: 'http://evil.example' },
        body: advance,
      },
      {
        path: `${ROUTES.api}command`,
        method: 'POST',
        headers: { ...json, origin: `http://127.0.0.1:${port + 1}` },
        body: command,
      },
      { path: `${ROUTES.events}?as=${WHO.trader}`, method: 'GET', headers: { origin: 'null' } },
    ];
    for (const a of attempts) {
      const res = await rawRequest(d.origin, a.path, a);
      expect({ ...a, status: res.status }).toEqual({ ...a, status: 403 });
    }
    // A form post from anywhere is not JSON: refused before anything happens.
    const form = await rawRequest(d.origin, `${ROUTES.sandbox}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: advance,
    });
    expect(form.status).toBe(415);
    // Nothing moved: the sandbox clock went on with real time only.
    expect(clock() - before).toBeLessThan(60_000);
    // The desk's own page is answered, named by either loopback name.
    expect((await rawRequest(d.origin, ROUTES.sandbox, { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await d.post(`${ROUTES.sandbox}/advance`, { ms: 1 })).status).toBe(200);
  });

  it("the Slack stand-in's users.info answers the desk's people by name and time zone", async () => {
    const res = await fetch(`${d.preview.slack.apiUrl}users.info`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${d.preview.env.SLACK_BOT_TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `user=${WHO.ben}`,
    });
    expect(((await res.json()) as { user: unknown }).user).toMatchObject({
      id: WHO.ben,
      real_name: 'Ben Approver',
      tz: 'America/New_York',
      tz_offset: expect.any(Number),
    });
  });

  it('cuts off a client that stalls in its body within the request timeout (the HTTP edge of every server)', async () => {
    const port = Number(new URL(d.origin).port);
    const stalled = await open(
      port,
      postHead(`${ROUTES.api}command`, 5_000, 'application/json', `127.0.0.1:${port}`) + '{"as":',
    );
    expect(await within(stalled, HTTP_EDGE.requestTimeoutMs + 3 * HTTP_EDGE.checkEveryMs)).toBe('closed');
    expect(stalled.received()).toMatch(/^HTTP\/1\.1 408 /);
    closeSlowSockets();
  }, 20_000);

  it("never serves the bot's token or signing secret: not in the page, the script, a snapshot or the panel", async () => {
    const secrets = [d.preview.signingSecret, d.preview.env.SLACK_BOT_TOKEN!];
    expect(secrets.every((s) => s.length >= 16)).toBe(true);
    const served = [
      (await rawRequest(d.origin, ROUTES.page)).body,
      (await rawRequest(d.origin, ROUTES.bundle)).body,
      (await rawRequest(d.origin, ROUTES.styles)).body,
      JSON.stringify((await d.get(ROUTES.sandbox)).json),
      ...[WHO.trader, WHO.ana, WHO.compliance, WHO.outsider].map((p) => JSON.stringify(d.snapshot(p))),
    ].join('\n');
    for (const secret of secrets) expect(served).not.toContain(secret);
  });
});
