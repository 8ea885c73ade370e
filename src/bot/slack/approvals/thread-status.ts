// Thread posts and the matching status line of the main message, from one description of what happened.
import { context, message, section, type MessagePayload } from '../kit/blocks.js';
import { amountText, formatAmount, shortAddress, slackDate } from '../kit/format.js';
import { code, escapeMrkdwn, link } from '../kit/mrkdwn.js';
import type { StatusLine } from './request-view.js';

export interface OrderResult {
  orderId: string;
  status: string;
  price?: string | null;
  /** The pair's counter currency, which the price is in. */
  priceCurrency?: string | null;
  fee?: string | null;
  feeCurrency?: string | null;
  netAmount?: string | null;
  receivedCurrency?: string | null;
}

/** "order 9f3c… at 65,299.46 USD": an order in plain words (status lines and DMs escape it). */
export function orderText(o: Pick<OrderResult, 'orderId' | 'price' | 'priceCurrency'>): string {
  return `order ${o.orderId}${o.price ? ` at ${amountText(o.price, o.priceCurrency ?? undefined)}` : ''}`;
}

/** Something that happened to an approved request. Texts inside are escaped by the builder. */
export type ThreadEvent =
  | { type: 'executing'; at: number }
  | {
      type: 'requoted';
      at: number;
      pair: string;
      oldPrice?: string;
      newPrice: string;
      limitPrice: string;
      counter: string;
    }
  | { type: 'requote_beyond_limit'; at: number; pair: string; newPrice: string; limitPrice: string; counter: string }
  | { type: 'submitted'; at: number; exchangeId: string; status: string }
  | { type: 'status_changed'; at: number; from?: string; to: string; detail?: string }
  | { type: 'completed'; at: number; explorerUrl?: string | null; transactionHash?: string | null; order?: OrderResult }
  | { type: 'failed'; at: number; message: string; hint?: string }
  | { type: 'outcome_unknown'; at: number; message: string; what: ExecutedThing }
  /** A withdrawal whose destination is cooling down: executed when the cooldown ends. */
  | { type: 'scheduled'; at: number; executeAt: number; reason: string }
  /** After an unknown outcome: found on the exchange, or not (the next post says what follows). */
  | { type: 'reconciled'; at: number; found: boolean; exchangeId: string | null }
  | { type: 'resending'; at: number; attempt: number; what: ExecutedThing }
  /** The exchange cannot settle an unknown outcome: an approver must (the buttons are on the message). */
  | {
      type: 'needs_person';
      at: number;
      kind: 'not_found' | 'ambiguous' | 'unproven' | 'unreadable';
      candidates: number;
      waitedMinutes: number;
      what: ExecutedThing;
    }
  | { type: 'person_decided'; at: number; line: string }
  /** A person's settlement the fresh look made for it did not allow (the line says what appeared). */
  | { type: 'decision_withheld'; at: number; line: string }
  /** `notFound`: stopped because the exchange kept answering that the record does not exist (404). */
  | {
      type: 'polling_stopped';
      at: number;
      status: string | null;
      notFound?: { what: ExecutedThing; exchangeMessage: string };
    };

/** What was sent, for the sentences that differ by what the exchange does with a repeat. */
export type ExecutedThing = 'withdrawal' | 'order' | 'removal';

export function threadPost(event: ThreadEvent): MessagePayload {
  const text = threadText(event);
  const blocks = [section(text)];
  if (event.type === 'failed' && event.hint)
    blocks.push(context([`:information_source: ${escapeMrkdwn(event.hint, 2_000)}`]));
  return message(text, blocks);
}

function threadText(e: ThreadEvent): string {
  switch (e.type) {
    case 'executing':
      return ':arrows_counterclockwise: Approved: executing on the exchange.';
    case 'requoted': {
      const was = e.oldPrice ? ` (was ${formatAmount(e.oldPrice, esc(e.counter))})` : '';
      return `:repeat: Quote expired, re-quoted ${esc(e.pair)} at *${formatAmount(e.newPrice, esc(e.counter))}*${was}, within your limit of ${formatAmount(e.limitPrice, esc(e.counter))}: ordering.`;
    }
    case 'requote_beyond_limit':
      return `:warning: Re-quoted ${esc(e.pair)} at *${formatAmount(e.newPrice, esc(e.counter))}*, beyond the approved limit of ${formatAmount(e.limitPrice, esc(e.counter))}: nothing was ordered. The request needs approving again at the new price.`;
    case 'submitted':
      return `:outbox_tray: Sent to the exchange as ${code(e.exchangeId, 80)}: status *${esc(e.status)}*.`;
    case 'status_changed': {
      const from = e.from ? `${esc(e.from)} → ` : '';
      const detail = e.detail ? ` (${esc(e.detail)})` : '';
      return `:large_blue_circle: Status ${from}*${esc(e.to)}*${detail}.`;
    }
    case 'completed':
      return `:white_check_mark: *Completed.*${completedDetail(e)}`;
    case 'failed':
      return `:x: *Failed:* ${escapeMrkdwn(e.message, 2_000)}`;
    case 'outcome_unknown':
      return `:grey_question: No clear answer from the exchange (${escapeMrkdwn(e.message, 500)}), so it is not known yet whether ${UNKNOWN_WHAT[e.what]}`;
    case 'scheduled':
      return `:hourglass_flowing_sand: ${escapeMrkdwn(e.reason, 500)} Executes ${slackDate(e.executeAt)}.`;
    case 'reconciled':
      return e.found
        ? `:mag: Found on the exchange as ${code(e.exchangeId ?? '?', 80)}: nothing is sent again.`
        : ':mag: Not found on the exchange.';
    case 'resending':
      return `:repeat: ${RESENDING[e.what]} (attempt ${e.attempt}).`;
    case 'needs_person':
      return needsPersonText(e);
    case 'person_decided':
    case 'decision_withheld':
      return e.line;
    case 'polling_stopped':
      return e.notFound
        ? `:double_vertical_bar: Stopped following the status: the exchange keeps answering that this ${e.notFound.what} does not exist (${esc(e.notFound.exchangeMessage)}). ${NOT_FOUND_MEANS[e.notFound.what]} The outcome is unknown: the bot marks it neither failed nor completed. Check the exchange directly; last known status *${esc(e.status ?? 'unknown')}*.`
        : `:double_vertical_bar: Stopped following the status; last known *${esc(e.status ?? 'unknown')}*. Check the exchange directly.`;
  }
}

function needsPersonText(e: Extract<ThreadEvent, { type: 'needs_person' }>): string {
  if (e.what === 'order') {
    return `:raising_hand: No order with this request's client order id has appeared on the exchange in the ${e.waitedMinutes} minutes it was given. An approver must decide on the request message: *Look again* or *Mark as not placed*. The bot keeps looking meanwhile; if it appears, it is followed and the buttons go.`;
  }
  switch (e.kind) {
    case 'not_found':
      return `:raising_hand: The withdrawal has not appeared on the exchange in the ${e.waitedMinutes} minutes it was given. An approver must decide on the request message: *Look again*, *Send again…* or *Mark as not sent*. The bot keeps looking meanwhile; if it appears, it is followed and the buttons go.`;
    case 'unproven':
      return ':raising_hand: A withdrawal with these terms and no desk reference was made on the exchange so close to our send that its time cannot prove it came after it: it may be ours, or one made by hand just before. The bot does not guess. An approver must say on the request message whether it is ours; the bot keeps looking meanwhile.';
    case 'unreadable':
      return `:raising_hand: The bot still cannot read the exchange's withdrawals to the end, ${e.waitedMinutes} minutes after the send, so it cannot tell whether this withdrawal was made. An approver must check the exchange's history and decide on the request message: *Look again* or *Mark as not sent*. The bot keeps looking meanwhile.`;
    case 'ambiguous':
      return e.candidates === 1
        ? ":raising_hand: A withdrawal with these terms appeared on the exchange later than ours could have, so it may be someone else's, and the bot does not guess. An approver must say on the request message whether it is ours."
        : `:raising_hand: ${e.candidates} withdrawals on the exchange could be this one, and the bot does not guess. An approver must say on the request message which one is ours, or none of them.`;
  }
}

function completedDetail(e: Extract<ThreadEvent, { type: 'completed' }>): string {
  const parts: string[] = [];
  if (e.transactionHash) parts.push(`Transaction ${code(shortAddress(e.transactionHash, 10, 8), 40)}`);
  if (e.explorerUrl) parts.push(link(e.explorerUrl, 'View on the explorer'));
  if (e.order) {
    const o = e.order;
    parts.push(`Order ${code(o.orderId, 80)} ${esc(o.status)}`);
    if (o.price) parts.push(`price ${formatAmount(o.price, esc(o.priceCurrency ?? ''))}`.trimEnd());
    if (o.netAmount) parts.push(`received ${formatAmount(o.netAmount, esc(o.receivedCurrency ?? ''))}`.trimEnd());
    if (o.fee) parts.push(`fee ${formatAmount(o.fee, esc(o.feeCurrency ?? ''))}`.trimEnd());
  }
  return parts.length === 0 ? '' : ` ${parts.join(' · ')}`;
}

export function statusLineFor(e: ThreadEvent): StatusLine {
  switch (e.type) {
    case 'executing':
      return { text: 'Executing on the exchange', tone: 'progress', at: e.at };
    case 'requoted':
      return {
        text: `Re-quoted at ${amountText(e.newPrice, e.counter)}, within the limit: ordering`,
        tone: 'progress',
        at: e.at,
      };
    case 'requote_beyond_limit':
      return {
        text: `Re-quoted at ${amountText(e.newPrice, e.counter)}, beyond the limit ${amountText(e.limitPrice, e.counter)}: needs approval again`,
        tone: 'warning',
        at: e.at,
      };
    case 'submitted':
      return { text: `Submitted: ${e.status}`, tone: 'progress', at: e.at };
    case 'status_changed':
      return { text: `Status: ${e.to}${e.detail ? ` (${e.detail})` : ''}`, tone: 'progress', at: e.at };
    case 'completed':
      return {
        text: e.order ? `Completed: ${orderText(e.order)}` : 'Completed',
        tone: 'success',
        at: e.at,
        ...(e.explorerUrl ? { link: { url: e.explorerUrl, label: 'explorer' } } : {}),
      };
    case 'failed':
      return { text: `Failed: ${e.message}`, tone: 'failure', at: e.at };
    case 'outcome_unknown':
      return { text: 'Outcome unknown: looking for it on the exchange', tone: 'warning', at: e.at };
    case 'scheduled':
      return { text: "Waiting for the destination's cooldown", tone: 'warning', at: e.at };
    case 'reconciled':
      return { text: e.found ? 'Found on the exchange' : 'Not found on the exchange', tone: 'progress', at: e.at };
    case 'resending':
      return {
        text: e.what === 'order' ? 'Sending the order again with the same client order id' : 'Sending again',
        tone: 'progress',
        at: e.at,
      };
    case 'needs_person':
      return { text: 'Outcome unknown: an approver must decide', tone: 'warning', at: e.at };
    case 'person_decided':
      return { text: 'An approver decided', tone: 'progress', at: e.at };
    case 'decision_withheld':
      return { text: 'Decision not carried out: look at the thread', tone: 'warning', at: e.at };
    case 'polling_stopped':
      return e.notFound
        ? {
            text: `Status no longer followed: the exchange says the ${e.notFound.what} does not exist; outcome unknown`,
            tone: 'warning',
            at: e.at,
          }
        : { text: `Status no longer followed (last: ${e.status ?? 'unknown'})`, tone: 'warning', at: e.at };
  }
}

const esc = (text: string): string => escapeMrkdwn(text, 300);

/** The rest of the unknown-outcome sentence: what the bot does, true to what the exchange promises. */
const UNKNOWN_WHAT: Record<ExecutedThing, string> = {
  withdrawal:
    "the withdrawal was created. Nothing is sent again on the bot's own (the exchange does not prevent duplicate withdrawals): it looks for it on the exchange, and asks an approver if it does not appear.",
  order:
    'the order was placed. The bot looks for it by its client order id; an order sent again keeps that id, and the exchange refuses a second order with it.',
  removal:
    'the bank account was removed. The bot checks whether it is still there; asking again cannot remove anything twice.',
};

/** What a 404 on a record the bot follows can mean, as the exchange reference says it. */
const NOT_FOUND_MEANS: Record<ExecutedThing, string> = {
  withdrawal:
    'The exchange gives the same answer for a withdrawal that belongs to another user, so this does not say it was never made or that it failed.',
  order:
    'The reference does not say when the exchange answers this for an order it has, so this does not say it was never placed or that it failed.',
  removal: 'This does not say what became of it.',
};

const RESENDING: Record<ExecutedThing, string> = {
  withdrawal: 'Sending the withdrawal again, as an approver decided',
  order: 'Sending the order again with the same client order id; the exchange refuses a second order with it',
  removal: 'Asking the exchange again to remove the bank account',
};
