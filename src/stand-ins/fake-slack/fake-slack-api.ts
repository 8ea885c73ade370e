// A fake Slack Web API on loopback (SLACK_API_URL) for tests and the demo: answers as Slack does, records
// every call (whether a token came and matched, never the token) and serves response_url endpoints.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';

export interface FakeSlackCall {
  /** 1-based order of arrival. */
  seq: number;
  /** Web API method ("chat.postMessage"), or "response_url" for a respond() post. */
  method: string;
  /** Parsed arguments: form fields with JSON-carrying ones (blocks, view, …) decoded, or the JSON body. */
  args: Record<string, unknown>;
  /** For response_url posts: the id given to responseUrl(). */
  responseUrlId?: string;
  /** An Authorization: Bearer header (or a token field) was present. */
  authorized: boolean;
  /** When an expected token was configured: whether the presented one matched. */
  tokenMatched: boolean | undefined;
  at: number;
  response: Record<string, unknown>;
}

export interface FakeUser {
  id: string;
  real_name?: string;
  tz?: string;
  tz_offset?: number;
  /** Deactivated (Slack keeps answering users.info with `deleted: true`). */
  deleted?: boolean;
  is_bot?: boolean;
}

/** A channel as conversations.info answers it. */
export interface FakeChannel {
  id: string;
  name?: string;
  is_private?: boolean;
  is_archived?: boolean;
  /** Whether the bot is in it (default true). */
  is_member?: boolean;
}

export interface FakeSlackOptions {
  /** When set, calls with another bearer token get `invalid_auth` like Slack. */
  expectedToken?: string;
  /** Identity answered by auth.test. */
  botUserId?: string;
  botId?: string;
  teamId?: string;
  users?: FakeUser[];
  /** Milliseconds added before every answer (load tests). */
  delayMs?: number;
  /** Clock for recorded times and ts values; defaults to Date.now. */
  now?: () => number;
  /** What saved() gave in an earlier run: the workspace's views and sequences continue from there. */
  restore?: FakeSlackSaved;
}

/** Views and ts/view-id/hash counters, so a restart never reuses an id; calls are per run. */
export interface FakeSlackSaved {
  ts: number;
  views: number;
  hashes: number;
  held: [string, { hash: string; view: Record<string, unknown> }][];
}

export interface WaitOptions {
  /** Only calls with seq greater than this (e.g. `fake.calls.length` before acting). Default: any recorded call. */
  after?: number;
  timeoutMs?: number;
}

/** Argument names Slack clients send JSON-encoded inside form bodies. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'user_auth_blocks']);

type Handler = (args: Record<string, unknown>, call: { method: string }) => Record<string, unknown>;

/** The direct-message channel Slack gives the bot with one person ("D" + the user id without its first letter). */
export function dmChannelOf(userId: string): string {
  return `D${userId.slice(1)}`;
}

export class FakeSlackApi {
  readonly calls: FakeSlackCall[] = [];
  readonly options: FakeSlackOptions;
  #server: Server | undefined;
  #origin = '';
  #tsCounter = 100;
  #viewCounter = 0;
  #hashCounter = 0;
  #waiters: { predicate: (c: FakeSlackCall) => boolean; after: number; resolve: (c: FakeSlackCall) => void }[] = [];
  #listeners = new Set<(c: FakeSlackCall) => void>();
  #beforeAnswer: (() => Promise<void>) | undefined;
  #failures = new Map<string, string[]>();
  #dmRefusals = new Map<string, string>();
  #users = new Map<string, FakeUser>();
  #unknownUsers = new Set<string>();
  #channels = new Map<string, FakeChannel | 'unknown'>();
  #views = new Map<string, { hash: string; view: Record<string, unknown> }>();
  #handlers: Record<string, Handler>;

  constructor(options: FakeSlackOptions = {}) {
    this.options = options;
    for (const u of options.users ?? []) this.#users.set(u.id, u);
    this.#handlers = this.#defaultHandlers();
    const saved = options.restore;
    if (saved) {
      this.#tsCounter = saved.ts;
      this.#viewCounter = saved.views;
      this.#hashCounter = saved.hashes;
      this.#views = new Map(saved.held);
    }
  }

  saved(): FakeSlackSaved {
    return { ts: this.#tsCounter, views: this.#viewCounter, hashes: this.#hashCounter, held: [...this.#views] };
  }

  /** Base URL for the bot's SLACK_API_URL, ending with "/api/". */
  get apiUrl(): string {
    return `${this.#origin}/api/`;
  }

  /** A response_url the fake records posts to, labelled `id` in the calls. */
  responseUrl(id = 'r1'): string {
    return `${this.#origin}/response/${encodeURIComponent(id)}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.#origin = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  callsTo(method: string): FakeSlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /**
   * The first matching call after `after`, recorded or to come; rejects after timeoutMs.
   * @example const mark = fake.calls.length; await send(); await fake.waitFor((c) => c.method === 'views.open', { after: mark });
   */
  waitFor(predicate: (c: FakeSlackCall) => boolean, opts: WaitOptions = {}): Promise<FakeSlackCall> {
    const after = opts.after ?? 0;
    const found = this.calls.find((c) => c.seq > after && predicate(c));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = { predicate, after, resolve: (c: FakeSlackCall) => (clearTimeout(timer), resolve(c)) };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        const seen = this.calls.filter((c) => c.seq > after).map((c) => c.method);
        reject(
          new Error(
            `no matching Slack call within ${opts.timeoutMs ?? 2_000} ms; calls since: ${seen.join(', ') || 'none'}`,
          ),
        );
      }, opts.timeoutMs ?? 2_000);
      this.#waiters.push(waiter);
    });
  }

  /** The next call from now on that matches. */
  nextCall(predicate: (c: FakeSlackCall) => boolean = () => true, timeoutMs?: number): Promise<FakeSlackCall> {
    return this.waitFor(predicate, { after: this.calls.length, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  }

  /** Called before the bot gets its answer (the local desk folds calls into views); returns the unsubscribe. */
  onCall(listener: (c: FakeSlackCall) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The preview saves the workspace here, so what the bot is told exists is on disk first. */
  holdAnswers(hold: (() => Promise<void>) | undefined): void {
    this.#beforeAnswer = hold;
  }

  /** As Slack: `update` keeps the id, `push` gets a new one, always a new hash for later views.update. */
  recordView(view: Record<string, unknown>, id?: string): Record<string, unknown> {
    return this.#storeView({ view }, id);
  }

  /** The view Slack holds under `id` (after views.open, push, update or publish), if any. */
  viewById(id: string): Record<string, unknown> | undefined {
    return this.#views.get(id)?.view;
  }

  /** A message timestamp from the same strictly increasing sequence as the posts (for what the desk shows itself). */
  nextTs(): string {
    return this.#nextTs();
  }

  /** Make the next call(s) of `method` answer `{ ok: false, error }`, in order. */
  failNext(method: string, error: string): void {
    const queue = this.#failures.get(method) ?? [];
    queue.push(error);
    this.#failures.set(method, queue);
  }

  /** Direct messages to `userId` (chat.postMessage with the user id as channel) are refused with `error`, e.g. user_disabled. */
  refuseDmTo(userId: string, error: string): void {
    this.#dmRefusals.set(userId, error);
  }

  setUser(user: FakeUser): void {
    this.#unknownUsers.delete(user.id);
    this.#users.set(user.id, user);
  }

  /** users.info answers `user_not_found` for `id` from now on (any other well-formed id is a user). */
  forgetUser(id: string): void {
    this.#users.delete(id);
    this.#unknownUsers.add(id);
  }

  /** How conversations.info answers for this channel (a well-formed id not set is a public channel the bot is in). */
  setChannel(channel: FakeChannel): void {
    this.#channels.set(channel.id, channel);
  }

  /** conversations.info answers `channel_not_found` (as Slack does for a private channel the bot is not in, too). */
  forgetChannel(id: string): void {
    this.#channels.set(id, 'unknown');
  }

  on(method: string, handler: Handler): void {
    this.#handlers[method] = handler;
  }

  homeOf(userId: string): Record<string, unknown> | undefined {
    const call = [...this.callsTo('views.publish')].reverse().find((c) => c.args.user_id === userId);
    return call?.args.view as Record<string, unknown> | undefined;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    let args: Record<string, unknown>;
    try {
      args =
        contentType === 'application/json'
          ? raw
            ? (JSON.parse(raw) as Record<string, unknown>)
            : {}
          : decodeForm(raw);
    } catch {
      return send(res, 200, { ok: false, error: 'invalid_json' });
    }
    const bearer =
      /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ??
      (typeof args.token === 'string' ? args.token : undefined);
    delete args.token;
    const expected = this.options.expectedToken;
    const tokenMatched = expected === undefined ? undefined : bearer === expected;

    let method: string;
    let responseUrlId: string | undefined;
    let response: Record<string, unknown>;
    if (url.pathname.startsWith('/response/')) {
      method = 'response_url';
      responseUrlId = decodeURIComponent(url.pathname.slice('/response/'.length));
      response = { ok: true };
    } else if (url.pathname.startsWith('/api/')) {
      method = url.pathname.slice('/api/'.length);
      response = this.#answer(method, args, bearer !== undefined, tokenMatched);
    } else {
      return send(res, 404, { ok: false, error: 'not_found' });
    }

    const call: FakeSlackCall = {
      seq: this.calls.length + 1,
      method,
      args,
      ...(responseUrlId !== undefined ? { responseUrlId } : {}),
      authorized: bearer !== undefined,
      tokenMatched,
      at: this.#now(),
      response,
    };
    this.calls.push(call);
    for (const listener of [...this.#listeners]) listener(call);
    for (const w of [...this.#waiters]) {
      if (call.seq > w.after && w.predicate(call)) {
        this.#waiters = this.#waiters.filter((x) => x !== w);
        w.resolve(call);
      }
    }
    if (this.#beforeAnswer) await this.#beforeAnswer();
    if (this.options.delayMs) await new Promise((r) => setTimeout(r, this.options.delayMs));
    // Slack answers response_url posts with a plain "ok" body.
    if (method === 'response_url') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    send(res, 200, response);
  }

  #answer(
    method: string,
    args: Record<string, unknown>,
    authorized: boolean,
    tokenMatched: boolean | undefined,
  ): Record<string, unknown> {
    if (!authorized) return { ok: false, error: 'not_authed' };
    if (tokenMatched === false) return { ok: false, error: 'invalid_auth' };
    const failure = this.#failures.get(method)?.shift();
    if (failure) return { ok: false, error: failure };
    const handler = this.#handlers[method];
    if (!handler) return { ok: false, error: 'unknown_method' };
    return handler(args, { method });
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Message timestamps like Slack's: "1700000000.000100", strictly increasing. */
  #nextTs(): string {
    this.#tsCounter += 1;
    return `1700000000.${String(this.#tsCounter).padStart(6, '0')}`;
  }

  #storeView(args: Record<string, unknown>, id?: string): Record<string, unknown> {
    const viewId = id ?? `V${String(++this.#viewCounter).padStart(8, '0')}`;
    const hash = `h${++this.#hashCounter}`;
    const view = { ...(args.view as Record<string, unknown>), id: viewId, hash };
    this.#views.set(viewId, { hash, view });
    return view;
  }

  #viewIdOfExternal(externalId: string): string | undefined {
    for (const [id, stored] of this.#views) if (stored.view.external_id === externalId) return id;
    return undefined;
  }

  /** users.info as Slack answers it: `deleted` and `is_bot` always present. */
  #usersInfo(id: string): Record<string, unknown> {
    // Any well-formed id is a user (in UTC) unless registered with setUser or forgotten.
    const user =
      this.#users.get(id) ?? (/^[UW][A-Z0-9]+$/.test(id) && !this.#unknownUsers.has(id) ? { id } : undefined);
    if (!user) return { ok: false, error: 'user_not_found' };
    return {
      ok: true,
      user: {
        id: user.id,
        real_name: user.real_name ?? user.id,
        tz: user.tz ?? 'UTC',
        tz_offset: user.tz_offset ?? 0,
        deleted: user.deleted ?? false,
        is_bot: user.is_bot ?? false,
      },
    };
  }

  /** conversations.info as Slack answers a bot token: the channel with `is_member`, or channel_not_found. */
  #conversationsInfo(id: string): Record<string, unknown> {
    const set = this.#channels.get(id);
    if (set === 'unknown' || (set === undefined && !/^[CG][A-Z0-9]+$/.test(id)))
      return { ok: false, error: 'channel_not_found' };
    const c: FakeChannel = set ?? { id };
    const isPrivate = c.is_private ?? false;
    return {
      ok: true,
      channel: {
        id: c.id,
        name: c.name ?? c.id.toLowerCase(),
        is_channel: !isPrivate,
        is_group: isPrivate,
        is_im: false,
        is_private: isPrivate,
        is_archived: c.is_archived ?? false,
        is_member: c.is_member ?? true,
      },
    };
  }

  #defaultHandlers(): Record<string, Handler> {
    const channelOf = (c: unknown): string => {
      const channel = String(c ?? '');
      return /^[UW]/.test(channel) ? dmChannelOf(channel) : channel;
    };
    return {
      'auth.test': () => ({
        ok: true,
        url: 'https://fake.slack.test/',
        team: 'Fake Desk',
        user: 'deskbot',
        team_id: this.options.teamId ?? 'T0FAKE001',
        user_id: this.options.botUserId ?? 'U0BOT0001',
        bot_id: this.options.botId ?? 'B0BOT0001',
        app_id: 'A0FAKE001',
      }),
      'chat.postMessage': (a) => {
        if (!a.channel) return { ok: false, error: 'channel_not_found' };
        const refusal = this.#dmRefusals.get(String(a.channel));
        if (refusal) return { ok: false, error: refusal };
        if (duplicateIds(a.blocks)) return { ok: false, error: 'invalid_blocks' };
        if (!a.text && !a.blocks) return { ok: false, error: 'no_text' };
        const ts = this.#nextTs();
        const channel = channelOf(a.channel);
        return {
          ok: true,
          channel,
          ts,
          message: {
            type: 'message',
            text: a.text,
            blocks: a.blocks,
            ts,
            ...(a.thread_ts ? { thread_ts: a.thread_ts } : {}),
          },
        };
      },
      'chat.update': (a) => {
        if (!a.channel || !a.ts) return { ok: false, error: 'message_not_found' };
        if (duplicateIds(a.blocks)) return { ok: false, error: 'invalid_blocks' };
        return { ok: true, channel: a.channel, ts: a.ts, text: a.text, message: { text: a.text, blocks: a.blocks } };
      },
      'chat.delete': (a) =>
        a.channel && a.ts ? { ok: true, channel: a.channel, ts: a.ts } : { ok: false, error: 'message_not_found' },
      'chat.postEphemeral': (a) => {
        if (!a.channel || !a.user) return { ok: false, error: 'user_not_in_channel' };
        return { ok: true, message_ts: this.#nextTs() };
      },
      'chat.getPermalink': (a) => ({
        ok: true,
        channel: a.channel,
        permalink: `https://fake.slack.test/archives/${String(a.channel)}/p${String(a.message_ts).replace('.', '')}`,
      }),
      'views.open': (a) =>
        duplicateIds(viewBlocks(a))
          ? { ok: false, error: 'invalid_blocks' }
          : a.trigger_id
            ? { ok: true, view: this.#storeView(a) }
            : { ok: false, error: 'invalid_trigger_id' },
      'views.push': (a) =>
        duplicateIds(viewBlocks(a))
          ? { ok: false, error: 'invalid_blocks' }
          : a.trigger_id
            ? { ok: true, view: this.#storeView(a) }
            : { ok: false, error: 'invalid_trigger_id' },
      'views.update': (a) => {
        const id =
          typeof a.view_id === 'string'
            ? a.view_id
            : typeof a.external_id === 'string'
              ? this.#viewIdOfExternal(a.external_id)
              : undefined;
        const existing = id ? this.#views.get(id) : undefined;
        if (!id || !existing) return { ok: false, error: 'not_found' };
        if (duplicateIds(viewBlocks(a))) return { ok: false, error: 'invalid_blocks' };
        if (typeof a.hash === 'string' && a.hash !== existing.hash) return { ok: false, error: 'hash_conflict' };
        return { ok: true, view: this.#storeView(a, id) };
      },
      'views.publish': (a) =>
        duplicateIds(viewBlocks(a))
          ? { ok: false, error: 'invalid_blocks' }
          : a.user_id
            ? { ok: true, view: this.#storeView(a) }
            : { ok: false, error: 'invalid_arguments' },
      'conversations.open': (a) => {
        const users = String(a.users ?? '')
          .split(',')
          .filter(Boolean);
        if (users.length !== 1)
          return { ok: false, error: users.length === 0 ? 'users_list_not_supplied' : 'not_supported' };
        return { ok: true, channel: { id: dmChannelOf(users[0]!) } };
      },
      'users.info': (a) => this.#usersInfo(String(a.user ?? '')),
      'conversations.info': (a) => this.#conversationsInfo(String(a.channel ?? '')),
    };
  }
}

function viewBlocks(a: Record<string, unknown>): unknown {
  return (a.view as { blocks?: unknown } | undefined)?.blocks;
}

/** Slack refuses repeated block_ids or action_ids (`invalid_blocks`); so does this, so tests cannot pass on refused blocks. */
export function duplicateIds(blocks: unknown): boolean {
  if (!Array.isArray(blocks)) return false;
  const blockIds = new Set<string>();
  for (const block of blocks as Array<{
    block_id?: string;
    elements?: Array<{ action_id?: string }>;
    accessory?: { action_id?: string };
  }>) {
    if (block.block_id !== undefined) {
      if (blockIds.has(block.block_id)) return true;
      blockIds.add(block.block_id);
    }
    const actionIds = [...(block.elements ?? []), ...(block.accessory ? [block.accessory] : [])]
      .map((e) => e.action_id)
      .filter((id): id is string => id !== undefined);
    if (new Set(actionIds).size !== actionIds.length) return true;
  }
  return false;
}

/** Start a fake Slack Web API on 127.0.0.1 with a free port. */
export function startFakeSlackApi(options: FakeSlackOptions = {}): Promise<FakeSlackApi> {
  return new FakeSlackApi(options).start();
}

function decodeForm(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parseQuery(raw))) {
    const v = Array.isArray(value) ? value[value.length - 1] : value;
    if (v === undefined) continue;
    out[key] = JSON_FIELDS.has(key) ? JSON.parse(v) : v;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
