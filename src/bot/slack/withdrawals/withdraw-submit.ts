// Submitting a withdrawal: every field checked against the data shown, errors on their fields, before the
// ack and without an exchange call. A valid form is acked with "checking…"; then the engine freezes and
// posts the request, and the modal shows its id or the engine's objection.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { RequestInput } from '../../engine/engine.js';
import type { Refusal } from '../../domain/refusals.js';
import { sendingView } from '../request-forms/submitted-views.js';
import { refillForm } from '../kit/refill-form.js';
import type { SlackContext } from '../kit/slack-context.js';
import { withdrawModals, type CryptoFormData, type FiatFormData } from './withdraw-data.js';
import { checkCryptoSubmission, checkFiatSubmission, renderWithdrawForm } from './withdraw-form.js';
import { refusalNotes, repeatSubmission, sendRequestForm } from '../request-forms/request-flow.js';
import type { FieldErrors } from '../request-forms/field-errors.js';
import { BLOCK, dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { fieldValue, type StateValues } from '../kit/view-state.js';

const TITLE = 'Withdraw';

export function withdrawSubmitView(kind: 'crypto' | 'fiat') {
  return (ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> =>
    async ({ ack, body, view, client }) => {
      const modals = withdrawModals(ctx.deps);
      const data = await modals.get(view.id);
      if (
        !data &&
        (await repeatSubmission(ctx, client, TITLE, view.id, () =>
          ack({ response_action: 'update', view: sendingView(TITLE) }),
        ))
      )
        return;
      if (!data || data.kind !== kind) {
        const field = kind === 'crypto' ? INPUT.withdrawAmount : INPUT.fiatAmount;
        await ack({
          response_action: 'errors',
          errors: { [field]: 'This form is out of date. Close it and run /withdraw again.' },
        });
        return;
      }
      const values = view.state.values as StateValues;
      let input: RequestInput;
      if (data.kind === 'crypto') {
        const checked = checkCryptoSubmission(data, values, ctx.deps.clock.now());
        if (!checked.ok) return void (await ack(refusedSubmission(ctx, data, view, checked.errors)));
        const c = checked.value;
        input = {
          kind: 'crypto_withdrawal',
          cryptoCurrencyId: c.cryptoCurrencyId,
          addressBookId: c.destinationId,
          amount: c.amount,
          note: c.note ?? null,
          purpose: c.purpose ?? null,
        };
      } else {
        const checked = checkFiatSubmission(data, values);
        if (!checked.ok) return void (await ack(refusedSubmission(ctx, data, view, checked.errors)));
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
        onCreated: () => modals.delete(view.id),
      });
    };
}

type SubmittedView = { blocks?: unknown[]; state: { values: unknown }; private_metadata: string };

/** Each error once: an amount error Enter already drew is not repeated; with nothing else wrong the form is redrawn, keeping it open. */
function refusedSubmission(
  ctx: SlackContext,
  data: CryptoFormData | FiatFormData,
  view: SubmittedView,
  errors: FieldErrors,
) {
  const amountBlock = data.kind === 'crypto' ? INPUT.withdrawAmount : INPUT.fiatAmount;
  const amountError = errors[amountBlock];
  const summary = ((view.blocks ?? []) as { block_id?: string; text?: { text?: string } }[]).find(
    (b) => b.block_id === BLOCK.withdrawSummary,
  )?.text?.text;
  if (amountError === undefined || summary === undefined || !summary.includes(escapeMrkdwn(amountError)))
    return { response_action: 'errors' as const, errors };
  const rest = Object.fromEntries(Object.entries(errors).filter(([block]) => block !== amountBlock));
  if (Object.keys(rest).length > 0) return { response_action: 'errors' as const, errors: rest };
  const values = view.state.values as StateValues;
  const form = renderWithdrawForm(data, values, {
    now: ctx.deps.clock.now(),
    sandbox: ctx.sandbox,
    privateMetadata: view.private_metadata,
  });
  return { response_action: 'update' as const, view: refillForm(form, values, {}) };
}

/** The form as it was submitted, with the engine's objection under its field (or above the form when it has none). */
function refill(
  ctx: SlackContext,
  data: CryptoFormData | FiatFormData,
  values: StateValues,
  privateMetadata: string,
  refusal: Refusal,
) {
  if (refusal.reason !== 'invalid_input' && refusal.reason !== 'exchange_error') return undefined;
  const form = renderWithdrawForm(data, values, { now: ctx.deps.clock.now(), sandbox: ctx.sandbox, privateMetadata });
  const block = refusal.field ? fieldBlock(data, values, refusal.field) : undefined;
  return refillForm(form, values, refusalNotes(refusal, block));
}

/** The engine's field names -> the block of this form. */
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
