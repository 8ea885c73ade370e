// The local desk's server: a workspace folding the bot's Slack calls and the HTTP server showing it to the
// page. Served at once; bot and sandbox attach once they run.
import type { IncomingHttpHeaders } from 'node:http';
import type { FakeSlackApi, FakeSlackCall } from '../../fake-slack/fake-slack-api.js';
import { SlackRequester } from '../../fake-slack/slack-requests.js';
import { createLocalDeskActions } from './local-desk-actions.js';
import { foldCall } from './fold-calls.js';
import { startLocalDeskServer, type LocalDeskServer, type ServerEdge } from './http-server.js';
import { loadPageAssets } from './page-assets.js';
import type { PageAssets } from './page-build.js';
import type { PanelSandbox } from './sandbox-panel.js';
import { Workspace, type Cast, type SavedWorkspace } from './workspace.js';

export type { Cast, SavedWorkspace } from './workspace.js';
export type { PanelSandbox } from './sandbox-panel.js';
export { Workspace } from './workspace.js';
export { foldCall } from './fold-calls.js';

export interface LocalDeskOptions {
  /** The Slack stand-in the bot talks to (its calls are what the desk shows). */
  slack: FakeSlackApi;
  cast: Cast;
  /** Where the page is served, on 127.0.0.1 (0: a free port). */
  port: number;
  fromThisMachine: (headers: IncomingHttpHeaders, port: number) => boolean;
  /** The HTTP limits of the page's server (ports/http-edge.ts). */
  edge: ServerEdge;
  commands: readonly string[];
  /** The commands with `should_escape` on (manifest): people named in them reach the bot as `<@U…|name>`. */
  escaped?: readonly string[];
  keepAliveMs?: number;
  logError?: (message: string) => void;
  /** The page's script and styles; unset, the built files or a bundle made now (page-assets.ts). The bench passes the minified build. */
  assets?: PageAssets;
  /** What the workspace held when an earlier run stopped (Workspace.saved()). */
  saved?: SavedWorkspace;
}

export interface BotLink {
  /** The bot's HTTP receiver: http://127.0.0.1:<port>/slack/events */
  endpoint: string;
  signingSecret: string;
  sandbox: PanelSandbox | undefined;
}

export interface LocalDesk {
  url: string;
  port: number;
  ws: Workspace;
  server: LocalDeskServer;
  /** The bot is up: the page's actions and the sandbox panel work from now on. */
  attach(link: BotLink): void;
  close(): Promise<void>;
}

export async function startLocalDesk(o: LocalDeskOptions): Promise<LocalDesk> {
  const { slack } = o;
  const ws = new Workspace(
    o.cast,
    { nextTs: () => slack.nextTs(), now: () => (slack.options.now ?? Date.now)() },
    o.saved,
  );
  const fold = (call: FakeSlackCall) => {
    try {
      foldCall(ws, call);
    } catch (err) {
      // A call the fold chokes on is still shown as such, and the fake still answers the bot.
      ws.cannotPlace(
        call.method,
        `the local desk could not place it: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };
  for (const call of slack.calls) fold(call);
  const stopFolding = slack.onCall(fold);
  let server: LocalDeskServer;
  try {
    server = await startLocalDeskServer({
      ws,
      assets: o.assets ?? (await loadPageAssets()),
      port: o.port,
      fromThisMachine: o.fromThisMachine,
      edge: o.edge,
      ...(o.keepAliveMs !== undefined ? { keepAliveMs: o.keepAliveMs } : {}),
      ...(o.logError ? { logError: o.logError } : {}),
    });
  } catch (err) {
    stopFolding();
    throw err;
  }
  return {
    url: server.url,
    port: server.port,
    ws,
    server,
    attach(link) {
      const bot = new SlackRequester(link.endpoint, link.signingSecret);
      server.attach({
        actions: createLocalDeskActions({ ws, slack, bot, commands: o.commands, escaped: o.escaped ?? [] }),
        sandbox: link.sandbox,
      });
    },
    async close() {
      stopFolding();
      await server.close();
    },
  };
}
