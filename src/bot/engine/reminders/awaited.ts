/**
 * Who a waiting request still waits for: the approvers whose approval of this round would count
 * (never the requester, not those who approved it already), and how many approvals are missing.
 */
import { approvalsNeeded, countingApprovals, type Policy } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';

export interface Awaited {
  /** Approvers who have not acted on this round, in the policy's order. */
  approvers: string[];
  /** Approvals still missing. */
  missing: number;
}

export function awaitedOf(policy: Policy, request: RequestRecord): Awaited {
  if (!awaitsVerdict(request.state)) return { approvers: [], missing: 0 };
  const counted = countingApprovals(policy, request);
  const acted = new Set(request.approvals.filter((a) => a.snapshotHash === request.snapshotHash).map((a) => a.userId));
  const approvers = [...policy.approvers].filter((id) => id !== request.requester && !acted.has(id));
  return { approvers, missing: Math.max(0, approvalsNeeded(policy, request) - counted.length) };
}
