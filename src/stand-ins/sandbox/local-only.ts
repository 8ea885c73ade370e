// Control answers this machine only. Binding to 127.0.0.1 does not stop a local browser page (cross-origin
// simple POST, DNS rebinding), so a request must name a loopback host and, from a browser, come from this server.
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
