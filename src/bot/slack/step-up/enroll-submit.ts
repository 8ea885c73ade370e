// The enrollment modal's submit: the codes are checked before the ack (one store write, no exchange
// call), so a wrong one is answered under its field and the secret stays on screen to try again.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { SlackContext } from '../kit/slack-context.js';
import { INPUT } from '../kit/slack-ids.js';
import { fieldValue } from '../kit/view-state.js';
import { normalizedCode } from '../../domain/step-up/totp.js';
import { failureText, stepUpNotice, verdictText } from './step-up-views.js';
import { errorText } from '../../domain/error-text.js';

const SIX_DIGITS = 'Six digits, as the app shows them.';

export function enrollSubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view }) => {
    const values = view.state.values;
    const first = normalizedCode(fieldValue(values, INPUT.stepUpCode) ?? '');
    const replacing = values[INPUT.stepUpCurrentCode] !== undefined;
    const current = replacing ? normalizedCode(fieldValue(values, INPUT.stepUpCurrentCode) ?? '') : undefined;
    const errors: Record<string, string> = {};
    if (!first) errors[INPUT.stepUpCode] = SIX_DIGITS;
    if (replacing && !current) errors[INPUT.stepUpCurrentCode] = SIX_DIGITS;
    if (Object.keys(errors).length > 0) return ack({ response_action: 'errors', errors });
    let outcome;
    try {
      outcome = await ctx.deps.stepUps.confirm(body.user.id, first!, current);
    } catch (err) {
      ctx.logger.error(`2fa enrollment not confirmed: ${errorText(err)}`);
      return ack({ response_action: 'update', view: stepUpNotice('enroll', failureText(err)) });
    }
    if (outcome.ok)
      return ack({
        response_action: 'update',
        view: stepUpNotice(
          'enroll',
          ':white_check_mark: Your authenticator app is enrolled. Approvals that need a code will ask for it.',
        ),
      });
    const field = outcome.field === 'current' ? INPUT.stepUpCurrentCode : INPUT.stepUpCode;
    return ack({ response_action: 'errors', errors: { [field]: verdictText(outcome.verdict) } });
  };
}
