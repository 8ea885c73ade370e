/**
 * Bolt refuses a signed request more than five minutes old, but not one stamped in the future: a
 * request signed with a timestamp an hour ahead could be replayed for the whole hour after.
 * In front of Bolt's HTTP receiver, a request whose X-Slack-Request-Timestamp is more than five
 * minutes ahead of our clock is answered 401, as Bolt answers a stale one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Slack's own bound for a request's age, used both ways. */
export const REQUEST_FRESHNESS_SECONDS = 5 * 60;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export function refusingFutureRequests(listener: Listener, nowMs: () => number = Date.now): Listener {
  return (req, res) => {
    const stamp = Number(req.headers['x-slack-request-timestamp']);
    if (Number.isFinite(stamp) && stamp > Math.floor(nowMs() / 1000) + REQUEST_FRESHNESS_SECONDS) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('request timestamp is in the future');
      req.resume();
      return;
    }
    listener(req, res);
  };
}
