/**
 * Slack acknowledgement time while the exchange is slow: every exchange call takes 5 s (a
 * latency fault on every sandbox route), and 50 interactions of one kind are in flight at once.
 * Measured from a signed request sent to Bolt's real HTTP receiver on loopback until its whole
 * answer is back, for slash commands (/withdraw crypto, /balances), clicks (Approve) and form
 * submissions (/trade). Slack gives up at 3 s; the target is p99 < 100 ms.
 * The bot is wired as in production (src/slack/bot.ts) over the durable file stores. The load
 * comes from a worker thread (Slack is another machine: its side must not share the bot's
 * event loop); bodies are built here and signed there with the current time.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ACTION, CALLBACK, INPUT } from '../src/slack/ids.js';
import { approvalButtonValue } from '../src/slack/blocks/approval-message.js';
import { startDeskBot, USERS, APPROVAL_CHANNEL, type DeskBot } from '../test/e2e/support/desk-bot.js';
import { SIGNING_SECRET } from '../test/slack/support/harness.js';
import { blockActionPayload, commandBody, FORM, stateOf, viewSubmissionPayload } from '../test/slack/support/signed-requests.js';
import type { BenchRow } from './row.js';

const IN_FLIGHT = 50;
const ROUNDS = 3;
const EXCHANGE_LATENCY_MS = 5_000;
const TARGET_P99_MS = 100;

export async function benchSlack(): Promise<BenchRow[]> {
  const d = await startDeskBot({ seed: 'bench-slack', clientTimeoutMs: 30_000 });
  const load = startLoad(d);
  try {
    // One round more than measured: the first warms up the code paths (JIT) and is not counted.
    const pending = await pendingRequests(d, IN_FLIGHT * (ROUNDS + 1));
    d.sandbox.control.setFaults([{ kind: 'latency', latencyMs: EXCHANGE_LATENCY_MS }]);
    const samples = { commands: [] as number[], clicks: [] as number[], submissions: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const keep = round > 0 ? (kind: keyof typeof samples, ms: number[]) => samples[kind].push(...ms) : () => {};
      keep('commands', await load.burst(Array.from({ length: IN_FLIGHT }, (_, i) => command(d, i))));
      keep('clicks', await load.burst(pending.slice(round * IN_FLIGHT, (round + 1) * IN_FLIGHT).map((r) => approve(d, r))));
      keep('submissions', await load.burst(Array.from({ length: IN_FLIGHT }, (_, i) => submitTrade(round, i))));
    }
    const rows: BenchRow[] = [];
    for (const [kind, values] of Object.entries(samples)) {
      const p99 = percentile(values, 0.99);
      rows.push({ name: `Slack ack, ${kind}, ${IN_FLIGHT} in flight, exchange 5 s, p99`, value: p99, unit: 'ms', target: `< ${TARGET_P99_MS} ms`, pass: p99 < TARGET_P99_MS });
      rows.push({ name: `Slack ack, ${kind}, ${IN_FLIGHT} in flight, exchange 5 s, p50`, value: percentile(values, 0.5), unit: 'ms', target: 'info', pass: true });
    }
    return rows;
  } finally {
    await load.close();
    d.sandbox.control.clearFaults();
    await d.stop();
  }
}

/** The load generator: signs each form body with the signing secret and sends a burst at once. */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHmac } = require('node:crypto');
parentPort.on('message', async (bodies) => {
  const ts = Math.floor(Date.now() / 1000);
  const one = async (body) => {
    const headers = { 'content-type': workerData.contentType, 'x-slack-request-timestamp': String(ts),
      'x-slack-signature': 'v0=' + createHmac('sha256', workerData.secret).update('v0:' + ts + ':' + body).digest('hex') };
    const started = performance.now();
    const res = await fetch(workerData.endpoint, { method: 'POST', headers, body });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  parentPort.postMessage(await Promise.all(bodies.map(one)));
});`;

function startLoad(d: DeskBot): { burst(bodies: string[]): Promise<number[]>; close(): Promise<void> } {
  const worker = new Worker(LOAD_WORKER, { eval: true, workerData: { endpoint: d.slack.endpoint, secret: SIGNING_SECRET, contentType: FORM } });
  return {
    burst: (bodies) =>
      new Promise((resolve, reject) => {
        worker.once('message', (answers: { status: number; ms: number }[]) => {
          const bad = answers.find((a) => a.status !== 200);
          if (bad) reject(new Error(`Slack request answered ${bad.status}`));
          else resolve(answers.map((a) => a.ms));
        });
        worker.postMessage(bodies);
      }),
    close: async () => void (await worker.terminate()),
  };
}

/** Requests waiting for approvals, made before the exchange turns slow. */
async function pendingRequests(d: DeskBot, n: number): Promise<{ id: string; hash: string }[]> {
  const book: { id: string; label?: string | undefined }[] = [];
  for await (const a of d.exchange.listAddressBook({ pageSize: 100 })) book.push(a);
  const dest = book.find((a) => a.label === 'OTC partner (TRC20)')!;
  const out: { id: string; hash: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await d.bot.engine.request(USERS.requester, { kind: 'crypto_withdrawal', cryptoCurrencyId: 104, addressBookId: dest.id, amount: `${10 + i}` });
    if (!r.ok) throw new Error(`bench fixture refused: ${r.message}`);
    out.push({ id: r.request.id, hash: r.request.snapshotHash });
  }
  await d.idle();
  return out;
}

const interaction = (payload: Record<string, unknown>): string => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

function command(d: DeskBot, i: number): string {
  return i % 2 === 0
    ? commandBody({ command: '/withdraw', text: 'crypto', userId: USERS.requester, responseUrl: d.fake.responseUrl(`c${i}`) })
    : commandBody({ command: '/balances', userId: USERS.requester, responseUrl: d.fake.responseUrl(`c${i}`) });
}

function approve(d: DeskBot, r: { id: string; hash: string }): string {
  return interaction(
    blockActionPayload({
      userId: USERS.approver1,
      actionId: ACTION.approve,
      value: approvalButtonValue(r.id, r.hash),
      container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: '1700000000.000101' },
      responseUrl: d.fake.responseUrl(`a${r.id}`),
    }),
  );
}

function submitTrade(round: number, i: number): string {
  const text = (value: string) => stateOf.text(value);
  return interaction(
    viewSubmissionPayload({
      userId: USERS.requester,
      callbackId: CALLBACK.trade,
      viewId: `VBENCH${round}x${i}`,
      privateMetadata: JSON.stringify({ k: 'trade' }),
      values: {
        [INPUT.tradePair]: { [INPUT.tradePair]: text('BTC-USD') },
        [INPUT.tradeSide]: { [INPUT.tradeSide]: stateOf.radio('buy') },
        [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: text(`0.0${(i % 9) + 1}`) },
        [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: stateOf.radio('base') },
        [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select('user_balance') },
        [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: text('200000') },
      },
    }),
  );
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

// `npx tsx bench/slack.ts` runs this one alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  for (const row of await benchSlack()) console.log(`${row.name}: ${row.value.toFixed(1)} ${row.unit} (${row.target}) ${row.pass ? 'pass' : 'FAIL'}`);
  console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
