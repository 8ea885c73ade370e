/**
 * The exchange's clock as its `Date` response header tells it, compared with ours. The header has
 * one-second resolution and is written some time between our send and our receipt, so the
 * estimate is the header's second plus half a second, minus the midpoint of the round trip: good
 * to about ±1 s plus half the round trip. The newest answer wins (clocks drift; a stale reading
 * is worse than a fresh rough one).
 */
export interface ClockOffset {
  /** Exchange clock minus ours in ms, from the latest answer with a Date header; undefined before. */
  current(): number | undefined;
  /** Told of every answer: our clock at send and receipt, and the header's value (ms), if any. */
  observe(sentAtMs: number, receivedAtMs: number, dateHeader: string | null): void;
}

export function createClockOffset(): ClockOffset {
  let offset: number | undefined;
  return {
    current: () => offset,
    observe(sentAtMs, receivedAtMs, dateHeader) {
      const serverMs = Date.parse(dateHeader ?? '');
      if (Number.isNaN(serverMs)) return;
      offset = Math.round(serverMs + 500 - (sentAtMs + receivedAtMs) / 2);
    },
  };
}
