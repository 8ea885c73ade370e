/**
 * Submitting a withdrawal form: every field checked against the data the form showed, errors
 * under the field at fault (`response_action: errors`), all before the acknowledgement and
 * without an exchange call. A valid form is acknowledged with "checking…" at once; then the
 * engine reads the exchange, freezes the request and posts it for approval, and the modal
 * shows the request id, or the form again with the engine's objection on its field.
 */
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { RequestInput } from '../../app/engine.js';
import type { Refusal } from '../../domain/refusals.js';
import { sendingView } from '../request-forms/submitted-views.js';
import { refillForm } from '../kit/refill-form.js';
import type { SlackContext } from '../app/slack-context.js';
import type { CryptoFormData, FiatFormData } from './withdraw-data.js';
import { checkCryptoSubmission, checkFiatSubmission, renderWithdrawForm } from './withdraw-form.js';
import { refusalSentence, repeatSubmission, sendRequestForm } from '../request-forms/request-flow.js';
import { dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import { fieldValue, type StateValues } from '../kit/view-state.js';

const TITLE = 'Withdraw';

export function withdrawSubmitView(kind: 'crypto' | 'fiat') {
  return (ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> =>
    async ({ ack, body, view, client }) => {
      const data = await ctx.modals.get(view.id);
      if (!data && (await repeatSubmission(ctx, client, TITLE, view.id, () => ack({ response_action: 'update', view: sendingView(TITLE) })))) return;
      if (!data || data.kind !== kind) {
        const field = kind === 'crypto' ? INPUT.withdrawAmount : INPUT.fiatAmount;
        await ack({ response_action: 'errors', errors: { [field]: 'This form is out of date. Close it and run /withdraw again.' } });
        return;
      }
      const values = view.state.values as StateValues;
      let input: RequestInput;
      if (data.kind === 'crypto') {
        const checked = checkCryptoSubmission(data, values, ctx.deps.clock.now());
        if (!checked.ok) return void (await ack({ response_action: 'errors', errors: checked.errors }));
        const c = checked.value;
        input = { kind: 'crypto_withdrawal', cryptoCurrencyId: c.cryptoCurrencyId, addressBookId: c.destinationId, amount: c.amount, note: c.note ?? null, purpose: c.purpose ?? null };
      } else {
        const checked = checkFiatSubmission(data, values);
        if (!checked.ok) return void (await ack({ response_action: 'errors', errors: checked.errors }));
        const c = checked.value;
        input = { kind: 'fiat_withdrawal', currency: c.currency, bankAccountId: c.bankAccountId, amount: c.amount };
      }
      await ack({ response_action: 'update', view: sendingView(TITLE) });
      await sendRequestForm(ctx, client, {
        title: TITLE,
        viewId: view.id,
        userId: body.user.id,
        input,
        refill: (refusal) => refill(ctx, data, values, view.private_metadata, refusal),
        onCreated: () => ctx.modals.delete(view.id),
      });
    };
}

/** The form as it was submitted, with the engine's objection above it and under its field. */
function refill(ctx: SlackContext, data: CryptoFormData | FiatFormData, values: StateValues, privateMetadata: string, refusal: Refusal) {
  if (refusal.reason !== 'invalid_input' && refusal.reason !== 'exchange_error') return undefined;
  const form = renderWithdrawForm(data, values, { now: ctx.deps.clock.now(), sandbox: ctx.sandbox, privateMetadata });
  const block = refusal.field ? fieldBlock(data, values, refusal.field) : undefined;
  return refillForm(form, values, { top: refusalSentence(refusal), ...(block ? { fields: { [block]: refusal.message } } : {}) });
}

/** The engine's field names (app/request.ts) -> the block of this form. */
function fieldBlock(data: CryptoFormData | FiatFormData, values: StateValues, field: string): string | undefined {
  if (data.kind === 'crypto') {
    const entryId = fieldValue(values, INPUT.withdrawEntry);
    const blocks: Record<string, string | undefined> = {
      currency: INPUT.withdrawEntry,
      destination: entryId ? dynamicBlockId.withdrawDestination(entryId) : undefined,
      amount: INPUT.withdrawAmount,
      note: INPUT.withdrawNote,
      purpose: INPUT.withdrawPurpose,
    };
    return blocks[field];
  }
  const currency = fieldValue(values, INPUT.fiatCurrency);
  const blocks: Record<string, string | undefined> = {
    currency: INPUT.fiatCurrency,
    bank_account: currency ? dynamicBlockId.fiatBank(currency) : undefined,
    amount: INPUT.fiatAmount,
  };
  return blocks[field];
}
