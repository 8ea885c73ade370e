// Renews this replica's execution lease while its send or look runs, only while still ours. Lost (taken
// over, or expired with no renewal landing): the runner records nothing more. docs/execution.md "The execution lease".
import { errorText } from '../../domain/error-text.js';
import type { Lease } from '../../domain/record.js';
import type { EngineContext } from '../context.js';
import { leaseFor } from './lease.js';

export type LeaseLoss = { reason: 'taken'; heldBy: string | null } | { reason: 'ran_out'; until: number };

export interface LeaseKeeper {
  /** Stops renewing (waiting for a renewal under way); from then on `lost` is final. */
  stop(): Promise<void>;
  /** Set once the lease is known lost: the runner must record nothing more. */
  readonly lost: LeaseLoss | null;
}

/** Starts renewing `lease` (this replica's, as just persisted) on request `requestId`. */
export function keepLease(ctx: EngineContext, requestId: string, lease: Lease): LeaseKeeper {
  let until = lease.until;
  let lost: LeaseLoss | null = null;
  let stopped = false;
  let wake = (): void => {};
  const stopping = new Promise<void>((resolve) => (wake = resolve));

  const renewals = (async () => {
    let dueAt = ctx.clock.now() + ctx.config.leaseRenewMs;
    while (!stopped && lost === null) {
      await Promise.race([ctx.clock.sleep(Math.max(0, dueAt - ctx.clock.now())), stopping]);
      if (stopped) return;
      // A clock whose sleep returns before its time (a test's) must not turn this into a busy loop.
      if (ctx.clock.now() < dueAt) {
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 1)), stopping]);
        continue;
      }
      const now = ctx.clock.now();
      try {
        const renewed = await renew(ctx, requestId, now);
        if (renewed.ok) until = renewed.until;
        else lost = { reason: 'taken', heldBy: renewed.heldBy };
      } catch (err) {
        ctx.logger.warn('could not renew the execution lease; trying again', {
          requestId,
          error: errorText(err),
          until,
        });
      }
      if (lost === null && ctx.clock.now() >= until) lost = { reason: 'ran_out', until };
      dueAt = now + ctx.config.leaseRenewMs;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake();
      await renewals;
      // Frozen past the end of the lease with no renewal due meanwhile: someone may have taken it.
      if (lost === null && ctx.clock.now() >= until) lost = { reason: 'ran_out', until };
    },
    get lost() {
      return lost;
    },
  };
}

/** Moves the lease's end on if this replica still holds it; otherwise says who does. */
type Renewal = { ok: true; until: number } | { ok: false; heldBy: string | null };

function renew(ctx: EngineContext, requestId: string, now: number): Promise<Renewal> {
  const lease = leaseFor(ctx.replica, now, ctx.config.leaseTtlMs);
  return ctx.requests.mutate<Renewal>(requestId, (current) => {
    const held = current?.execution?.lease ?? null;
    if (current === undefined || current.execution === null || held === null || held.holder !== ctx.replica)
      return { result: { ok: false, heldBy: held?.holder ?? null } };
    return {
      next: { ...current, execution: { ...current.execution, lease } },
      result: { ok: true, until: lease.until },
    };
  });
}
