/**
 * Who a waiting request still waits for: the approvers whose approval of this round would count
 * now (never the requester, not those who acted on it already, only in a group it still needs),
 * and how many approvals are missing.
 */
import { approvalsNeeded, countingApprovals, stillNeeded, type Policy } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';

export interface Awaited {
  /** Approvers who may still count on this round, in the policy's order. */
  approvers: string[];
  /** Approvals still missing. */
  missing: number;
}

export function awaitedOf(policy: Policy, request: RequestRecord): Awaited {
  if (!awaitsVerdict(request.state)) return { approvers: [], missing: 0 };
  const counted = countingApprovals(policy, request);
  return {
    approvers: stillNeeded(policy, request),
    missing: Math.max(0, approvalsNeeded(policy, request) - counted.length),
  };
}
