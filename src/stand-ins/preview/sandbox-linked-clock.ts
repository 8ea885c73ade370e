// The bot's clock reads the sandbox's, so moving the exchange forward moves polling too and a quote expires
// for both at once. Linked once runBot has started the sandbox; the wall clock until then.
import type { Clock } from '../../bot/ports/clock.js';
import type { Sandbox } from '../sandbox/index.js';

export interface LinkedClock {
  clock: Clock;
  link: (sandbox: Sandbox | undefined) => void;
}

export function sandboxLinkedClock(): LinkedClock {
  let sandbox: Sandbox | undefined;
  return {
    clock: {
      now: () => sandbox?.clock.now() ?? Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    link(s) {
      sandbox = s;
    },
  };
}
