// The exchange's clock from its `Date` header: one-second resolution, written between our send and
// receipt, so header + 0.5 s minus the round trip's midpoint (about ±1 s plus half the trip).
// The newest answer wins: clocks drift, and a stale reading is worse than a fresh rough one.
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
