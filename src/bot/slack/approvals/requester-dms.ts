/** The requester's direct messages: on each decision of their request, and when an approved one ends. */
import { context, message, section, type MessagePayload } from '../kit/blocks.js';
import { slackDate } from '../kit/format.js';
import { code, escapeMrkdwn, link, mention } from '../kit/mrkdwn.js';
import { headline } from './approval-message.js';
import { KIND_LABEL, type Verdict, type RequestView } from './request-view.js';

export interface VerdictDmInput {
  requestId: string;
  request: RequestView;
  verdict: Verdict;
  /** Who approved, for an approval. */
  approvers?: readonly string[];
  /** Permalink of the approval message, when known. */
  messageUrl?: string;
}

/** The requester's direct message when their request is decided. */
export function verdictDm(input: VerdictDmInput): MessagePayload {
  const what = `${KIND_LABEL[input.request.kind].toLowerCase()} ${code(input.requestId, 40)} (${escapeMrkdwn(headline(input.request), 300)})`;
  const d = input.verdict;
  let text: string;
  switch (d.outcome) {
    case 'approved':
      text = `:white_check_mark: Your ${what} was approved${input.approvers?.length ? ` by ${input.approvers.map(mention).join(' and ')}` : ''} ${slackDate(d.at)}. Execution follows in the approval thread.`;
      break;
    case 'rejected':
      text = `:no_entry: Your ${what} was rejected by ${mention(d.by)} ${slackDate(d.at)}:\n>${escapeMrkdwn(d.reason, 2_000).replace(/\n/g, '\n>')}`;
      break;
    case 'cancelled':
      text = `:heavy_multiplication_x: Your ${what} was cancelled by ${mention(d.by)} ${slackDate(d.at)}.`;
      break;
    case 'expired':
      text = `:hourglass: Your ${what} expired ${slackDate(d.at)} without enough approvals. Ask again if it is still needed.`;
      break;
  }
  const blocks = [section(text)];
  if (input.messageUrl) blocks.push(context([link(input.messageUrl, 'Open the approval message')]));
  return message(text, blocks);
}

export interface OutcomeDmInput {
  requestId: string;
  request: RequestView;
  outcome:
    | { kind: 'completed'; at: number; explorerUrl?: string | null; orderText?: string }
    | { kind: 'failed'; at: number; reason: string };
}

/**
 * The requester's direct message when an approved request ends: completed, or failed with the
 * reason (which says what to do when there is something to do, e.g. missing recipient details).
 */
export function outcomeDm(input: OutcomeDmInput): MessagePayload {
  const what = `${KIND_LABEL[input.request.kind].toLowerCase()} ${code(input.requestId, 40)} (${escapeMrkdwn(headline(input.request), 300)})`;
  const o = input.outcome;
  const text =
    o.kind === 'completed'
      ? `:white_check_mark: Your ${what} completed ${slackDate(o.at)}.${o.orderText ? ` ${escapeMrkdwn(o.orderText, 500)}` : ''}${o.explorerUrl ? ` ${link(o.explorerUrl, 'View on the explorer')}` : ''}`
      : `:x: Your ${what} failed ${slackDate(o.at)}:\n>${escapeMrkdwn(o.reason, 2_000).replace(/\n/g, '\n>')}`;
  return message(text, [section(text)]);
}
