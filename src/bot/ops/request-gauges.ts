// What the desk holds now, read from the store at each scrape (no copy in memory, so every replica
// reports the same truth): open requests by state, unknown outcomes, the outbox backlog.
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import type { Repository } from '../ports/store.js';
import type { RequestRecord } from '../domain/record.js';
import { FINAL_STATES, REQUEST_STATES } from '../domain/state-machine.js';

/** Finished requests move to history; the open ones are all there is to count. */
const OPEN_STATES = REQUEST_STATES.filter((s) => !FINAL_STATES.includes(s));

export function requestGauges(
  registry: Registry,
  requests: Repository<RequestRecord>,
  clock: Pick<Clock, 'now'>,
): void {
  const registers = [registry];
  // A backlog can be long (a day of Slack outage): no Math.min(...spread) over it.
  // prom-client collects every gauge of a scrape at once: they share one read of each under way.
  const live = sharedRead(() => requests.listLive());
  const pending = sharedRead(() => requests.outbox.pending());
  const oldestAgeSeconds = (times: number[]) =>
    times.length === 0 ? 0 : Math.max(0, clock.now() - times.reduce((a, b) => Math.min(a, b))) / 1000;

  new Gauge({
    name: 'desk_requests',
    help: 'Open requests by state (finished ones are in the history and not counted here).',
    labelNames: ['state'],
    registers,
    async collect() {
      const open = await live();
      for (const state of OPEN_STATES) this.set({ state }, open.filter((r) => r.state === state).length);
    },
  });
  new Gauge({
    name: 'desk_unknown_outcomes_open',
    help: 'Requests whose send has no known outcome yet (state unknown): looked for on the exchange, or waiting for a person.',
    registers,
    async collect() {
      this.set((await live()).filter((r) => r.state === 'unknown').length);
    },
  });
  new Gauge({
    name: 'desk_unknown_outcome_oldest_age_seconds',
    help: 'How long the oldest open unknown outcome has been unknown; 0 when there is none.',
    registers,
    async collect() {
      this.set(
        oldestAgeSeconds(
          (await live()).flatMap((r) =>
            r.state === 'unknown' && r.execution?.unknownSince != null ? [r.execution.unknownSince] : [],
          ),
        ),
      );
    },
  });
  new Gauge({
    name: 'desk_outbox_pending',
    help: 'Events waiting to reach Slack (the durable outbox).',
    registers,
    async collect() {
      this.set((await pending()).length);
    },
  });
  new Gauge({
    name: 'desk_outbox_oldest_age_seconds',
    help: 'How long the oldest event waiting to reach Slack has waited; 0 when none waits.',
    registers,
    async collect() {
      this.set(oldestAgeSeconds((await pending()).map((e) => e.event.at)));
    },
  });
}

/** `read`, joined while one is under way (a later call after it settled reads afresh). */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let underWay: Promise<T> | undefined;
  return () => (underWay ??= read().finally(() => (underWay = undefined)));
}
