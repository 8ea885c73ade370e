/**
 * The local desk as `npm start` runs it with nothing configured (stand-ins/preview/run-local-desk.ts
 * runPreview): the fake Slack, the real bot through its real HTTP receiver on the embedded
 * sandbox, and the desk's HTTP server on a free loopback port. Tests act only through the desk's
 * HTTP API, as the page does, and read each person's snapshot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../../src/bot/config/index.js';
import type { Snapshot } from '../../../../src/stand-ins/local-desk/protocol.js';
import { ROUTES } from '../../../../src/stand-ins/local-desk/protocol.js';
import { PREVIEW_IDS } from '../../../../src/stand-ins/preview/preview-cast.js';
import { runPreview, type PreviewRun, type ServeOptions } from '../../../../src/stand-ins/preview/run-local-desk.js';
import { startPreview, type Preview } from '../../../../src/stand-ins/preview/preview.js';

export const WHO = {
  trader: PREVIEW_IDS.trader,
  ana: PREVIEW_IDS.approvers[0],
  ben: PREVIEW_IDS.approvers[1],
  compliance: PREVIEW_IDS.compliance,
  outsider: PREVIEW_IDS.outsider,
  deskChannel: PREVIEW_IDS.commandChannel,
  approvalChannel: PREVIEW_IDS.approvalChannel,
  complianceChannel: PREVIEW_IDS.complianceChannel,
} as const;

export interface TestLocalDesk extends PreviewRun {
  preview: Preview;
  /** http://127.0.0.1:<port> (no trailing slash). */
  origin: string;
  logs: string[];
  /** POST a JSON body to a desk route, as the page does (its own Origin). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  /** GET a desk route as the page does (a same-origin GET carries no Origin). */
  get(path: string): Promise<{ status: number; json: any }>;
  /** POST /desk/api/<name>. */
  api(name: string, body: unknown): Promise<{ status: number; json: any }>;
  snapshot(person: string): Snapshot;
  /** Resolves with the first snapshot of `person` that satisfies `ok` (checked on every change). */
  until(person: string, ok: (s: Snapshot) => boolean, what: string, timeoutMs?: number): Promise<Snapshot>;
  stop(): Promise<void>;
}

/**
 * `dataDir`: run on this folder and leave it at stop (a restart test starts a second desk on it);
 * unset, a temporary folder removed at stop. `fresh`: as `npm start -- --fresh`.
 */
export async function startTestLocalDesk(
  o: { env?: Record<string, string>; dataDir?: string; fresh?: boolean } & ServeOptions = {},
): Promise<TestLocalDesk> {
  const owned = o.dataDir === undefined;
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'local-desk-'));
  const removeOwned = () => owned && rmSync(dataDir, { recursive: true, force: true });
  const preview = await startPreview(
    { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', POLL_INTERVAL_MS: '200', ...o.env },
    { fresh: o.fresh ?? false },
  );
  const logs: string[] = [];
  let run: PreviewRun;
  try {
    run = await runPreview(preview, loadConfig(preview.env), {
      runOptions: { logWrite: (l) => void logs.push(l), tickMs: 100 },
      serve: {
        logError: (m) => void logs.push(m),
        ...(o.keepAliveMs ? { keepAliveMs: o.keepAliveMs } : {}),
        ...(o.assets ? { assets: o.assets } : {}),
      },
    });
  } catch (err) {
    await preview.close();
    removeOwned();
    throw err;
  }
  const origin = `http://127.0.0.1:${run.localDesk.port}`;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await rawRequest(origin, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
  };
  const ws = run.localDesk.ws;
  return {
    ...run,
    preview,
    origin,
    logs,
    post,
    async get(path) {
      const res = await rawRequest(origin, path);
      return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
    },
    api: (name, body) => post(`${ROUTES.api}${name}`, body),
    snapshot: (person) => ws.snapshot(person),
    until(person, ok, what, timeoutMs = 8_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const s = ws.snapshot(person);
          if (!ok(s)) return false;
          stop();
          clearTimeout(timer);
          resolve(s);
          return true;
        };
        const stop = ws.onChange(() => void check());
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`${what}: not in ${person}'s snapshot within ${timeoutMs} ms\n${logs.join('\n')}`));
        }, timeoutMs);
        check();
      });
    },
    async stop() {
      await run.bot.stop();
      await run.localDesk.close();
      await preview.close();
      removeOwned();
    },
  };
}

/** An HTTP request with headers fetch will not send as given (Host). */
export function rawRequest(
  origin: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Every text of a message's blocks and its fallback, for "does it say …". */
export function said(m: { text?: string; blocks?: unknown[] }): string {
  return `${m.text ?? ''} ${JSON.stringify(m.blocks ?? [])}`;
}
