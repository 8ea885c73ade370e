/**
 * The limits of every HTTP server the bot runs (Slack's receiver, the health server, the local
 * desk): a client that sends its headers or body slowly, or opens many connections, is cut off
 * in seconds instead of holding memory and sockets for Node's defaults (300 s per request,
 * unlimited connections). A leaf module: the servers live in layers that import nothing of each other.
 */
import type { Server, ServerOptions } from 'node:http';

export const HTTP_EDGE = {
  /** Whole headers within this (Node: 60 s). */
  headersTimeoutMs: 3_000,
  /** Whole request within this (Node: 300 s); Slack gives up on an ack after 3 s anyway. */
  requestTimeoutMs: 5_000,
  /** How often Node looks for requests past those bounds (Node: 30 s, which would stretch them). */
  checkEveryMs: 1_000,
  /** An idle keep-alive connection closes after this (Node's default, said here). */
  keepAliveTimeoutMs: 5_000,
  /**
   * Open connections per server; more are closed at once. High enough for a burst of real clicks
   * (the storm tests open 1,000 at once); what unsigned bodies may hold is bounded apart (slack/shell/body-budget.ts).
   */
  maxConnections: 2_048,
} as const;

/** Options for node:http createServer (or Bolt's start, which passes them on). */
export const EDGE_SERVER_OPTIONS: ServerOptions = {
  headersTimeout: HTTP_EDGE.headersTimeoutMs,
  requestTimeout: HTTP_EDGE.requestTimeoutMs,
  connectionsCheckingInterval: HTTP_EDGE.checkEveryMs,
};

/** The limits a server takes after creation (Bolt creates its own; set before it accepts much). Tests may lower the cap. */
export function limitServer(server: Server, maxConnections: number = HTTP_EDGE.maxConnections): void {
  server.headersTimeout = HTTP_EDGE.headersTimeoutMs;
  server.requestTimeout = HTTP_EDGE.requestTimeoutMs;
  server.keepAliveTimeout = HTTP_EDGE.keepAliveTimeoutMs;
  server.maxConnections = maxConnections;
}

/** Both halves together, for a server whose layer may not import this file (the composition hands it over). */
export const SERVER_EDGE = { options: EDGE_SERVER_OPTIONS, limit: (server: Server) => limitServer(server) } as const;
