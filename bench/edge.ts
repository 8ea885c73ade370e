// What slow, large, unsigned requests cost the HTTP edge: peak memory with 100 stalled 3.9 MB bodies (the bot
// against Bolt's defaults), and a signed /balances' delay alone and beside 5 stalled unsigned requests.
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startFakeSlackApi, type FakeSlackApi } from '../src/stand-ins/fake-slack/fake-slack-api.js';
import { SlackRequester } from '../src/stand-ins/fake-slack/slack-requests.js';
import { EVENTS_PATH } from '../src/bot/slack/shell/slack-app.js';
import { percentile, type BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const TOKEN = 'xoxb-bench-000000000-EDGEBENCHTOKEN';
const SECRET = 'bench-signing-secret-0123456789abcdef';
const DECLARED = 4 * 1024 * 1024;
const SENT = Math.round(3.9 * 1024 * 1024);
const STALLED = 5;
const MB = 1024 * 1024;

export async function benchEdge(scale: Scale = 'full'): Promise<BenchRow[]> {
  const size = { connections: sized(scale, 100, 3), rounds: sized(scale, 20, 2) };
  const fake = await startFakeSlackApi({ expectedToken: TOKEN });
  try {
    const rows: BenchRow[] = [];
    for (const variant of ['desk', 'bolt-defaults'] as const) {
      const child = await startChild(variant, fake.apiUrl);
      try {
        const idle = await peakOf(child.proc);
        rows.push({
          name: `${variant}: resident memory, idle`,
          value: idle.rss / MB,
          unit: 'MB',
          target: 'info',
          pass: true,
        });
        for (const how of ['declared', 'chunked'] as const) {
          child.proc.send('reset');
          const sockets = await attack(child.port, how, size.connections);
          const under = await peakOf(child.proc);
          for (const s of sockets) s.destroy();
          const grew = (under.peak - idle.rss) / MB;
          const held = variant === 'desk';
          rows.push({
            name: `${variant}: peak memory growth, ${size.connections} connections sending 3.9 MB ${how === 'declared' ? 'of a declared 4 MB' : 'chunked, no length'}`,
            value: grew,
            unit: 'MB',
            target: held ? '< 150 MB' : 'info (the edge before)',
            pass: !held || grew < 150,
          });
          await new Promise((r) => setTimeout(r, 500));
        }
        if (variant === 'desk') rows.push(...(await followUpDelay(child.port, fake, size.rounds)));
      } finally {
        child.proc.send('stop');
        await new Promise((r) => child.proc.once('exit', r));
      }
    }
    return rows;
  } finally {
    await fake.stop();
  }
}

async function startChild(variant: string, slackApiUrl: string): Promise<{ proc: ChildProcess; port: number }> {
  const proc = fork(fileURLToPath(new URL('./edge-child.ts', import.meta.url)), [variant, slackApiUrl, TOKEN, SECRET], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('message', (m: { port: number }) => resolve(m.port));
    proc.once('exit', (code) => reject(new Error(`edge bench child (${variant}) exited with ${code}`)));
  });
  return { proc, port };
}

function peakOf(proc: ChildProcess): Promise<{ rss: number; peak: number }> {
  return new Promise((resolve) => {
    proc.once('message', (m: { rss: number; peak: number }) => resolve(m));
    proc.send('peak');
  });
}

/** Opens the connections, sends each body as far as the server takes it, and leaves them open. */
async function attack(port: number, how: 'declared' | 'chunked', connections: number): Promise<Socket[]> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const one = async (): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', resolve).once('close', resolve));
    const framing = how === 'declared' ? `Content-Length: ${DECLARED}` : 'Transfer-Encoding: chunked';
    socket.write(
      `POST ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\n\r\n`,
    );
    for (let sent = 0; sent < SENT && !socket.destroyed; sent += chunk.length) {
      const data =
        how === 'declared'
          ? chunk
          : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      if (!socket.write(data))
        await new Promise<void>((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
    return socket;
  };
  const sockets = await Promise.all(Array.from({ length: connections }, one));
  // Let the server take in what was sent before its memory is read.
  await new Promise((r) => setTimeout(r, 500));
  return sockets;
}

/** A signed /balances, from sending until its reply reaches Slack, alone and beside stalled unsigned requests. */
async function followUpDelay(port: number, fake: FakeSlackApi, rounds: number): Promise<BenchRow[]> {
  const slack = new SlackRequester(`http://127.0.0.1:${port}${EVENTS_PATH}`, SECRET);
  const once = async (id: string): Promise<number> => {
    const started = performance.now();
    const replied = fake.waitFor((c) => c.method === 'response_url' && c.responseUrlId === id, { timeoutMs: 10_000 });
    await slack.command({ command: '/balances', userId: 'U0REQ0001', responseUrl: fake.responseUrl(id) });
    await replied;
    return performance.now() - started;
  };
  const rows: BenchRow[] = [];
  for (const stalled of [0, STALLED]) {
    const sockets: Socket[] = [];
    for (let i = 0; i < stalled; i++) {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => {});
      s.write(
        `POST ${EVENTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000\r\n\r\npayload=%7B`,
      );
      sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 100));
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) samples.push(await once(`edge-${stalled}-${i}`));
    for (const s of sockets) s.destroy();
    rows.push({
      name: `desk: /balances reply time (p50), ${stalled} unsigned requests stalled mid-body`,
      value: percentile(samples, 0.5),
      unit: 'ms',
      target: stalled ? '< 100 ms' : 'info',
      pass: !stalled || percentile(samples, 0.5) < 100,
    });
  }
  return rows;
}
