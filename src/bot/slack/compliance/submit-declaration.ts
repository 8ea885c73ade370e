// Submitting the declaration: answered at once, never after an exchange call. Errors on their inputs; a
// valid form is acked with "sending…", then the use case audits, guards and sends, and the modal shows the
// outcome or the exchange's objection on its field. A non-officer is refused and audited.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { checkDeclaration } from '../../engine/compliance/declaration.js';
import type { DeclarationOutcome, DeclarationRequest } from '../../engine/compliance/declare.js';
import { counterpartyView } from './counterparty-modal.js';
import { noticeView } from '../kit/modal-views.js';
import { refusalText } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { INPUT } from '../kit/slack-ids.js';
import { counterpartyValues, type CounterpartyMeta } from './counterparty-form.js';
import { readMetadata } from '../kit/view-state.js';
import { outcomeView, sendingView } from './declaration-views.js';
import { refillForm, type SubmittedValues } from '../kit/refill-form.js';
import { errorsByInput, walletLabel } from './form-fields.js';
import { errorText } from '../../domain/error-text.js';

const TITLE = 'Counterparty';

export function submitDeclarationView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view, client }) => {
    const declarations = ctx.deps.declarations;
    const meta = readMetadata<CounterpartyMeta>(view.private_metadata);
    const values = view.state.values as SubmittedValues;
    const form = { ...counterpartyValues(values), ...(meta.t ? { transactionId: meta.t } : {}) };
    const label = walletLabel(values);
    const request: DeclarationRequest = {
      ...form,
      userId: body.user.id,
      submissionId: view.id,
      ...(label ? { walletLabel: label } : {}),
    };
    // Every input is in the form except the transaction's, left out when the modal was opened for one.
    const shown = (blockId: string) => blockId !== INPUT.cpTransaction || meta.t === undefined;

    if (!ctx.roles.isCompliance(body.user.id)) {
      await ack({ response_action: 'update', view: noticeView(TITLE, refusalText('not_compliance')) });
      // The use case refuses and audits, sending nothing.
      await declarations.declare(request);
      return;
    }
    const checked = checkDeclaration(form);
    if (!checked.ok) {
      const { byInput, elsewhere } = errorsByInput(checked.errors, shown);
      if (elsewhere.length > 0) await ack({ response_action: 'update', view: noticeView(TITLE, elsewhere.join(' ')) });
      else await ack({ response_action: 'errors', errors: byInput });
      await declarations.declare(request); // audits the attempt; sends nothing
      return;
    }

    await ack({ response_action: 'update', view: sendingView(view.private_metadata) });
    let outcome: DeclarationOutcome;
    try {
      outcome = await declarations.declare(request);
    } catch (err) {
      ctx.logger.error(`counterparty declaration failed: ${errorText(err)}`);
      await client.views.update({
        view_id: view.id,
        view: noticeView(
          TITLE,
          'The declaration could not be completed because of an internal error. It has been logged; check the deposit message before trying again.',
        ),
      });
      return;
    }
    // A second delivery of a submission in flight: the first one updates the modal.
    if (outcome.kind === 'in_flight') return;
    const next =
      outcomeView(outcome) ??
      refillForm(
        counterpartyView({
          ...(meta.t ? { transactionId: meta.t } : {}),
          privateMetadata: view.private_metadata,
          sandbox: ctx.sandbox,
        }),
        values,
        notesFor(outcome, shown),
      );
    await client.views.update({ view_id: view.id, view: next });
  };
}

/** Where the form shows what stopped the declaration. */
function notesFor(
  outcome: DeclarationOutcome,
  shown: (blockId: string) => boolean,
): { top?: string; fields?: Record<string, string> } {
  switch (outcome.kind) {
    case 'invalid': {
      const { byInput, elsewhere } = errorsByInput(outcome.errors, shown);
      return { fields: byInput, ...(elsewhere.length > 0 ? { top: elsewhere.join(' ') } : {}) };
    }
    case 'rejected':
      return { top: `The exchange refused the declaration: ${outcome.message}`, fields: {} };
    case 'unknown':
      return { top: outcome.message };
    default:
      return {};
  }
}
