/**
 * One time line for the bot and the embedded sandbox: the bot's clock reads the sandbox's, so
 * moving the exchange forward (a withdrawal reaching `broadcasted` a minute early) moves the bot's
 * polling with it, and a quote expires for both at the same instant. The sandbox starts inside
 * runDesk, so the clock is linked once it runs; until then both read the wall clock (the sandbox
 * starts with no offset).
 */
import type { Clock } from '../../bot/ports/clock.js';
import type { Sandbox } from '../sandbox/index.js';

export interface LinkedClock {
  clock: Clock;
  link(sandbox: Sandbox | undefined): void;
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
