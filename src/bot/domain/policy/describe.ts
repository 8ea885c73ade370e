// The policy in plain words, line by line: what `npm run policy -- check` prints and /desk policy shows.
import { requireText } from './build.js';
import { durationText } from './duration.js';
import type { Limit, Policy, Rule } from './model.js';

/** "large withdrawals: crypto_withdrawal or fiat_withdrawal worth at least 100000 USD → 2 of treasury and 1 of risk". */
export function ruleLine(rule: Rule): string {
  const m = rule.match;
  const what = [
    m.kinds ? m.kinds.join(' or ') : 'any request',
    m.assets ? `of ${m.assets.join(' or ')}` : '',
    m.valueAtLeast ? `worth at least ${m.valueAtLeast.amount} ${m.valueAtLeast.currency}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const expires = rule.expiresAfterMs ? `, expires after ${durationText(rule.expiresAfterMs)}` : '';
  const remind = rule.remindAfterMs ? `, reminds after ${durationText(rule.remindAfterMs)}` : '';
  const every = rule.remindEveryMs ? `, then every ${durationText(rule.remindEveryMs)}` : '';
  return `${rule.name}: ${what} → ${requireText(rule.require)}${expires}${remind}${every}`;
}

export function limitLine(limit: Limit): string {
  const kinds = limit.match.kinds ? `${limit.match.kinds.join(' or ')} of ` : '';
  const over = limit.over === 'refuse' ? 'refused' : `also needs ${requireText(limit.over.require)}`;
  return `${limit.name}: ${kinds}${limit.match.asset}, at most ${limit.max} ${limit.match.asset} per ${durationText(limit.windowMs)}; over it: ${over}`;
}

/** Every fact of the policy, in order: where it comes from, groups, requesters, rules, limits, destinations. */
export function describePolicy(policy: Policy): string[] {
  const lines = [
    policy.source.from === 'file'
      ? `Policy file ${policy.source.path} (sha256 ${policy.source.hash})`
      : 'Policy from REQUESTER_USER_IDS, APPROVER_USER_IDS and REQUIRED_APPROVALS',
    'Groups:',
    ...[...policy.groups].map(([name, members]) => `  ${name}: ${[...members].join(', ')}`),
    `Requesters: ${[...policy.requesters].join(', ') || 'nobody'}`,
    `Compliance: ${[...policy.compliance].join(', ') || 'nobody'}`,
    'Rules (the first that matches decides; the requester never counts, one person counts once):',
    ...policy.rules.map((r, i) => `  ${i + 1}. ${ruleLine(r)}`),
  ];
  if (policy.delegationForbiddenFor.size > 0)
    lines.push(
      `Delegation: forbidden for members of ${[...policy.delegationForbiddenFor].join(', ')} (nobody approves in their place)`,
    );
  if (policy.limits.length > 0) lines.push('Limits:', ...policy.limits.map((l) => `  ${limitLine(l)}`));
  if (policy.destinations.size > 0)
    lines.push(
      'Destinations:',
      ...[...policy.destinations].map(([asset, to]) => `  ${asset}: only to ${to.join(', ')}`),
    );
  return lines;
}
