// Who approved, as messages name them: the approver, or "@Ben for @Ana" when a delegate clicked.
import { mention } from '../kit/mrkdwn.js';

export function approverText(a: { userId: string; delegate?: string }): string {
  return a.delegate ? `${mention(a.delegate)} for ${mention(a.userId)}` : mention(a.userId);
}
