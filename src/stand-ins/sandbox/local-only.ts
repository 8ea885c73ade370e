/**
 * The sandbox's control surface (and anything else that moves balances or time) answers this
 * machine only. Binding to 127.0.0.1 keeps other machines out, but not a web page open in a
 * browser here: it can POST across origins (no preflight for a simple request) or reach the
 * port under another name through DNS rebinding. So a control request must name this server by
 * a loopback host and, when a browser sent it, come from a page of this same server.
 */
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** True when `Host` is a loopback name with this port and `Origin`, if any, is that same host. */
export function isFromThisMachine(headers: IncomingHttpHeaders, port: number): boolean {
  const allowed = LOOPBACK_NAMES.map((name) => `${name}:${port}`);
  const host = headers.host?.toLowerCase();
  if (host === undefined || !allowed.includes(host)) return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  return allowed.some((h) => origin.toLowerCase() === `http://${h}`);
}
