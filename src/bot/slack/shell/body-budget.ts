/**
 * The bodies /slack/events may be reading at once, in bytes, before their signatures are checked:
 * each request counts its declared length (a chunked one, without a length, counts the body limit)
 * from arrival until its response ends. A request that would pass the budget is answered 503 at
 * once, unread. This bounds what unsigned clients can make the bot hold however many connections
 * they open, while a burst of real clicks (a few KB each) passes: the connection cap alone would
 * either refuse bursts or allow the limit times the cap.
 */
export const SLACK_BODY_BUDGET_BYTES = 32 * 1024 * 1024;

export interface BodyBudget {
  /** Takes `bytes` if they fit; returns the release (idempotent), or undefined when they do not. */
  take(bytes: number): (() => void) | undefined;
  readonly inUse: number;
}

export function bodyBudget(totalBytes = SLACK_BODY_BUDGET_BYTES): BodyBudget {
  let inUse = 0;
  return {
    get inUse() {
      return inUse;
    },
    take(bytes) {
      if (inUse + bytes > totalBytes) return undefined;
      inUse += bytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse -= bytes;
      };
    },
  };
}
