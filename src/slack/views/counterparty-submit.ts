/**
 * Submitting a counterparty declaration: only officers; every field checked and the exact body
 * built (validate/counterparty.ts). Sending it to the exchange, with the audit and the thread
 * confirmation, belongs to the compliance flow wired in a later pass.
 */
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { noticeView } from '../blocks/modals/common.js';
import { refusalText } from '../blocks/notices.js';
import { notWiredText } from '../commands/not-wired.js';
import { auditCounterpartyRefusal } from '../compliance-refusal.js';
import type { SlackContext } from '../context.js';
import { counterpartyValues, type CounterpartyMeta } from '../forms/counterparty-form.js';
import { checkCounterparty } from '../validate/counterparty.js';
import { readMetadata, type StateValues } from '../view-state.js';

export function counterpartySubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view }) => {
    const meta = readMetadata<CounterpartyMeta>(view.private_metadata);
    if (!ctx.roles.isCompliance(body.user.id)) {
      await ack({ response_action: 'update', view: noticeView('Counterparty', refusalText('not_compliance')) });
      await auditCounterpartyRefusal(ctx, body.user.id, meta.t, 'declaration submit');
      return;
    }
    const checked = checkCounterparty(counterpartyValues(view.state.values as StateValues), meta.t);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await ack({ response_action: 'update', view: noticeView('Counterparty', notWiredText('Sending the declaration').replace(/^:construction: /, ''), 'info') });
  };
}
