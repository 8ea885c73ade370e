/**
 * Submitting a withdrawal form: every field checked against the data the form showed, errors
 * under the field at fault (`response_action: errors`). A valid request goes to the approval
 * engine once wired; until then the modal says so and nothing is sent.
 */
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { noticeView } from '../blocks/modals/common.js';
import { notWiredText } from '../commands/not-wired.js';
import type { SlackContext } from '../context.js';
import { checkCryptoSubmission, checkFiatSubmission } from '../forms/withdraw-form.js';
import { INPUT } from '../ids.js';
import type { StateValues } from '../view-state.js';

export function withdrawSubmitView(kind: 'crypto' | 'fiat') {
  return (ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> =>
    async ({ ack, view }) => {
      const data = ctx.modals.get(view.id);
      if (!data || data.kind !== kind) {
        const field = kind === 'crypto' ? INPUT.withdrawAmount : INPUT.fiatAmount;
        await ack({ response_action: 'errors', errors: { [field]: 'This form is out of date. Close it and run /withdraw again.' } });
        return;
      }
      const values = view.state.values as StateValues;
      const checked = data.kind === 'crypto' ? checkCryptoSubmission(data, values, ctx.deps.clock.now()) : checkFiatSubmission(data, values);
      if (!checked.ok) {
        await ack({ response_action: 'errors', errors: checked.errors });
        return;
      }
      await ack({ response_action: 'update', view: noticeView('Withdraw', notWiredText('Asking for approval').replace(/^:construction: /, ''), 'info') });
      ctx.modals.delete(view.id);
    };
}
