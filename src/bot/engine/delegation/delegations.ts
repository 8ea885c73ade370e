/**
 * Delegations in the shared key-value store, one key per approver (`delegation:<approver>`), so
 * every replica reads the same: set (replacing the approver's earlier one), ended, read. Each
 * change is audited; an end removes only the delegation it read (`deleteIf`), never a newer one.
 */
import { errorText } from '../../domain/error-text.js';
import { isActive, judgeDelegation, type Delegation, type DelegationJudgement } from '../../domain/delegation.js';
import { delegationRefusal, isApprover, isDeskMember, type Policy } from '../../domain/policy.js';
import type { Clock } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/store.js';
import { audit, type EngineContext } from '../context.js';

export const DELEGATION_KEY_PREFIX = 'delegation:';

export function delegationKey(approver: string): string {
  return `${DELEGATION_KEY_PREFIX}${approver}`;
}

export interface Delegations {
  /** `approver` names `delegate` until `until` (undefined: none given, refused). */
  set(approver: string, delegate: string, until: number | undefined): Promise<DelegationJudgement>;
  /** Ends `approver`'s delegation in force and returns it; undefined when there was none. */
  end(approver: string): Promise<Delegation | undefined>;
  /** `approver`'s delegation in force, if any. */
  of(approver: string): Promise<Delegation | undefined>;
  /** Every delegation in force, of the approvers on the list. */
  active(): Promise<Delegation[]>;
}

/** Whether the policy lets `approver`'s delegate count for them (not in a group that forbids delegation). */
export function mayDelegate(ctx: EngineContext, approver: string): boolean {
  return delegationRefusal(ctx.policy, approver) === undefined;
}

/**
 * `onChange`: after `approver`'s delegation started or ended (the messages that say who may
 * approve are worked out again); its failure is logged, the delegation stands.
 */
export function createDelegations(
  ctx: EngineContext,
  onChange: (approver: string) => Promise<unknown> = async () => undefined,
): Delegations {
  const changed = (approver: string) =>
    onChange(approver).then(
      () => undefined,
      (err: unknown) =>
        ctx.logger.warn('messages not updated after a delegation change; the ten-minute pass does it', {
          approver,
          error: errorText(err),
        }),
    );
  const read = async (approver: string) => {
    const stored = await ctx.kv.get<Delegation>(delegationKey(approver));
    return stored !== undefined && isActive(stored, ctx.clock.now()) ? stored : undefined;
  };
  return {
    async set(approver, delegate, until) {
      const judged = judgeDelegation({
        approver,
        delegate,
        until,
        now: ctx.clock.now(),
        isApprover: (id) => isApprover(ctx.policy, id),
        isDeskMember: (id) => isDeskMember(ctx.policy, id),
        delegationRefusal: (id) => delegationRefusal(ctx.policy, id),
      });
      if (!judged.ok) {
        await audit(ctx, 'delegation.refused', approver, undefined, { delegate, until, message: judged.message });
        return judged;
      }
      const before = await read(approver);
      await ctx.kv.set(delegationKey(approver), judged.delegation);
      if (before) await audit(ctx, 'delegation.ended', approver, undefined, { ...before, reason: 'replaced' });
      await audit(ctx, 'delegation.set', approver, undefined, { ...judged.delegation });
      await changed(approver);
      return judged;
    },
    async end(approver) {
      const current = await read(approver);
      if (current === undefined) return undefined;
      if (!(await ctx.kv.deleteIf(delegationKey(approver), current))) return undefined;
      await audit(ctx, 'delegation.ended', approver, undefined, { ...current, reason: 'ended', at: ctx.clock.now() });
      await changed(approver);
      return current;
    },
    of: read,
    active: () => activeDelegations(ctx),
  };
}

/** Every delegation in force, read from the approvers' keys (a delegate's click needs them; App Home too). */
export async function activeDelegations(from: {
  kv: Pick<KeyValueStore, 'get'>;
  policy: Policy;
  clock: Pick<Clock, 'now'>;
}): Promise<Delegation[]> {
  const now = from.clock.now();
  const stored = await Promise.all([...from.policy.approvers].map((a) => from.kv.get<Delegation>(delegationKey(a))));
  return stored.filter((d): d is Delegation => d !== undefined && isActive(d, now));
}
