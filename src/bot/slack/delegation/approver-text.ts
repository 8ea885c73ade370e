// Who approved, or may still approve, as messages name them: the approver, or "@Ben for @Ana" when a
// delegate clicked (or may click) in their place.
import { mention } from '../kit/mrkdwn.js';

export function approverText(a: { userId: string; delegate?: string }): string {
  return a.delegate ? `${mention(a.delegate)} for ${mention(a.userId)}` : mention(a.userId);
}

/** The awaited approvers and the delegates who may approve in their place: "<@Rita>, <@Ana> or <@Ben> for <@Ana>". */
export function stillApproveText(
  approvers: readonly string[],
  actingDelegates: readonly { userId: string; delegate: string }[] = [],
): string {
  const names = [...approvers.map((userId) => approverText({ userId })), ...actingDelegates.map(approverText)];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
}
