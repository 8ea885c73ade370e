// What the approval policy says, in the words the desk reads in help, the trade form and /desk policy.
// One source: the policy itself, never a number written into a message.
import { requireText, type Policy, type Rule } from '../../domain/policy.js';
import type { RequestKind } from '../../domain/request.js';

/** The variables' policy (one group, one rule): "2 approvals"; otherwise undefined. */
function plainCount(policy: Policy): number | undefined {
  if (policy.source.from === 'file' || policy.rules.length !== 1) return undefined;
  return policy.rules[0]!.require.reduce((sum, r) => sum + r.count, 0);
}

/** The line under /desk help. */
export function approvalsSentence(policy: Policy): string {
  const plain = plainCount(policy);
  if (plain !== undefined) return `Every money movement needs ${plain} approvals by people other than the requester.`;
  if (policy.source.from !== 'file')
    return 'Every money movement needs at least two approvals by people other than the requester; larger ones need more.';
  const rules = policy.rules.map((r) => `${r.name}: ${requireText(r.require)}`).join('; ');
  return `Approvals follow the desk's policy, never the requester's own: ${rules}. \`/desk policy\` shows it in full.`;
}

/** The rules that could decide a request of this kind, in order. */
function rulesFor(policy: Policy, kind: RequestKind): Rule[] {
  return policy.rules.filter((r) => r.match.kinds === undefined || r.match.kinds.includes(kind));
}

/** The trade form's hint under the worst price. */
export function tradeApprovalHint(policy: Policy): string {
  const plain = plainCount(policy);
  const rules = rulesFor(policy, 'trade');
  const needs =
    plain !== undefined
      ? `${plain} approvals`
      : rules.length === 1 || (rules[0] && Object.keys(rules[0].match).every((k) => k === 'kinds'))
        ? `the approvals of rule "${rules[0]!.name}" (${requireText(rules[0]!.require)})`
        : "the approvals the desk's policy asks for it";
  return `The order executes later, after ${needs}, at a fresh quote within this limit.`;
}
