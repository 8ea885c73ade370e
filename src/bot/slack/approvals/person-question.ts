// What the message shows while an unknown outcome waits for a person. True to the reference: request_id
// "must not be relied on to prevent duplicates", so sending again is said to risk a second withdrawal.
import type { Candidate, SettlementRecord, PersonQuestion } from '../../domain/record.js';
import { ACTION, BLOCK } from '../kit/slack-ids.js';
import { formatAmount, slackDate } from '../kit/format.js';
import { actions, button, context, section, type KnownBlock } from '../kit/blocks.js';
import { code, escapeMrkdwn, mention } from '../kit/mrkdwn.js';
import { LIMITS } from '../kit/limits.js';
import { packLines } from '../kit/cut-lists.js';

export interface QuestionView {
  requestId: string;
  question: PersonQuestion;
  /** When our first send started (our clock): an unproven candidate's time is read against it. */
  sentAt?: number;
  /** "withdrawal" or "order" (a trade: its question has no candidates and no send again). */
  what: string;
  /** The asset or currency of the amounts. */
  currency: string;
}

/** A button's value: the request, the question it answers (its time) and, for a candidate, which. */
export function settleButtonValue(requestId: string, askedAt: number, exchangeId?: string): string {
  return [requestId, String(askedAt), ...(exchangeId === undefined ? [] : [exchangeId])].join(':');
}

export function parseSettleButtonValue(
  value: string | undefined,
): { requestId: string; askedAt: number; exchangeId?: string } | undefined {
  const m = /^([A-Za-z0-9_-]{1,64}):(\d{1,16})(?::([A-Za-z0-9_-]{1,80}))?$/.exec(value ?? '');
  if (!m) return undefined;
  return { requestId: m[1]!, askedAt: Number(m[2]), ...(m[3] ? { exchangeId: m[3] } : {}) };
}

/** The warning, the candidates (if any) and the buttons. Block ids carry the request id: unique in App Home too. */
export function questionBlocks(v: QuestionView): KnownBlock[] {
  const q = v.question;
  const since = slackDate(q.askedAt);
  const value = settleButtonValue(v.requestId, q.askedAt);
  const lookAgain = button('Look again', ACTION.lookAgain, value);
  /** A question without candidates: its warning and its buttons. */
  const asked = (warning: string, buttons: ReturnType<typeof button>[]): KnownBlock[] => [
    section(warning, `${BLOCK.personQuestion}:${v.requestId}`),
    actions(buttons, `${BLOCK.personActions}:${v.requestId}`),
  ];
  if (q.kind === 'not_found' && v.what === 'order') {
    return asked(
      `:warning: *The exchange did not confirm this order, and no order with its client order id is listed* (asked ${since}). ` +
        "It may still appear; the bot keeps looking for it by its client order id. Check the exchange's order history before you decide. " +
        'The bot places no further order for this request on its own: to trade, mark this one as not placed and request again.',
      [lookAgain, button('Mark as not placed', ACTION.markNotPlaced, value)],
    );
  }
  if (q.kind === 'not_found') {
    return asked(
      `:warning: *The exchange did not confirm this ${v.what}, and it has not appeared in the exchange's list* (asked ${since}). ` +
        `It may still appear; the bot keeps looking. Check the exchange's ${v.what} history before you decide: ` +
        `the exchange does not prevent duplicates, so sending again while the first one exists pays twice.`,
      [
        lookAgain,
        button('Send again…', ACTION.sendAgain, value, { style: 'danger' }),
        button('Mark as not sent', ACTION.markNotSent, value),
      ],
    );
  }
  if (q.kind === 'unreadable') {
    const why = q.message ? ` (${escapeMrkdwn(q.message, 500)})` : '';
    return asked(
      `:warning: *The bot cannot read the exchange's ${v.what}s to the end*${why}, so it cannot prove whether this ${v.what} was made (asked ${since}). ` +
        `Check the exchange's ${v.what} history: if it is there, wait for the bot to find it or look again; if it is not, mark it as not sent (carried out only on a look that reads the exchange to the end) and request it again.`,
      [lookAgain, button('Mark as not sent', ACTION.markNotSent, value)],
    );
  }
  const blocks: KnownBlock[] = [];
  const lead = candidatesLead(v, since);
  // Every candidate is listed, over more sections when one cannot hold them (the note below counts on it).
  const [first = lead, ...rest] = packLines([lead, ...q.candidates.map((c, i) => candidateLine(c, v.currency, i))]);
  blocks.push(section(first, `${BLOCK.personQuestion}:${v.requestId}`), ...rest.map((chunk) => section(chunk)));
  const buttons = q.candidates
    .slice(0, 4)
    .map((c, i) =>
      button(
        `Ours: ${i + 1}`,
        `${ACTION.chooseCandidate}:${i}`,
        settleButtonValue(v.requestId, q.askedAt, c.exchangeId),
      ),
    );
  blocks.push(
    actions(
      [...buttons, button('None of these', ACTION.noneOfThese, value), lookAgain],
      `${BLOCK.personActions}:${v.requestId}`,
    ),
  );
  if (q.candidates.length > 4)
    blocks.push(
      context([
        `${q.candidates.length - 4} more candidates are listed above without a button: check them on the exchange.`,
      ]),
    );
  return blocks;
}

function candidatesLead(v: QuestionView, since: string): string {
  const q = v.question;
  if (q.kind === 'unproven') {
    const sent = v.sentAt === undefined ? '' : ` (our send started ${slackDate(v.sentAt, '{date_short} {time_secs}')})`;
    return `:warning: *A ${v.what} with these terms and no desk reference was made on the exchange too close to our send to prove it came after it*${sent} (asked ${since}). It may be ours, or one made by hand just before. The bot does not guess: an approver says, after checking the exchange.`;
  }
  return q.candidates.length === 1
    ? `:warning: *A ${v.what} with these terms appeared on the exchange later than ours could have* (asked ${since}). It may be ours, committed late, or someone else's. The bot does not guess: an approver says, after checking the exchange.`
    : `:warning: *More than one ${v.what} on the exchange could be this one* (asked ${since}). The bot does not choose: an approver says which is ours, after checking the exchange.`;
}

/** "1. 100 USDT · pending · created 09:01 · OTC partner · `d5093294…`". */
export function candidateLine(c: Candidate, currency: string, index?: number): string {
  const n = index === undefined ? '•' : `${index + 1}.`;
  const where = c.destination ? ` · ${escapeMrkdwn(c.destination, 200)}` : '';
  return `${n} ${formatAmount(c.amount, escapeMrkdwn(currency, 20))} · ${escapeMrkdwn(c.status, 60)} · created ${slackDate(c.createdAt, '{date_short} {time_secs}')}${where} · ${code(c.exchangeId, 80)}`;
}

/** Who decided what, oldest first: shown on the message for as long as it exists. */
export function settlementsBlock(requestId: string, decisions: readonly SettlementRecord[]): KnownBlock | undefined {
  const lines = decisions.filter((d) => d.action !== 'look_again').map(settlementLine);
  if (lines.length === 0) return undefined;
  // A context holds 10 texts of 3,000 characters; past that the earliest decisions give way to a note.
  let from = 0;
  while (packLines(lines.slice(from), LIMITS.contextText).length > LIMITS.contextElements - (from > 0 ? 1 : 0))
    from += 1;
  const earlier =
    from > 0
      ? [
          `${from} earlier ${from === 1 ? 'decision is' : 'decisions are'} not shown here: each is in this message's thread.`,
        ]
      : [];
  return context(
    [...earlier, ...packLines(lines.slice(from), LIMITS.contextText)],
    `${BLOCK.settlements}:${requestId}`,
  );
}

/** Not carried out: its look found the request's own record, a possible one, or could not read the exchange. */
export function withheldLine(
  d: SettlementRecord,
  reason: 'found' | 'appeared' | 'unreadable',
  appeared: readonly Candidate[],
  what: string,
  currency: string,
): string {
  const act =
    d.action === 'send_again'
      ? 'send it again'
      : d.action === 'choose'
        ? `take ${code(d.exchangeId ?? '?', 80)} as ours`
        : `mark it as not ${what === 'order' ? 'placed' : 'sent'}`;
  const lead = `:no_entry: ${mention(d.by)} decided to ${act}; the bot looked on the exchange first, and did not do it:`;
  switch (reason) {
    case 'found':
      return `${lead} the ${what} is there, carrying this request's key. It is followed from now on; nothing is sent again.`;
    case 'unreadable':
      return `${lead} the exchange could not be read, so nothing proves the ${what} is not there. Decide again on the request message once the exchange answers.`;
    case 'appeared':
      return [
        `${lead} ${appeared.length === 1 ? `a ${what} that may be this one appeared` : `${appeared.length} ${what}s that may be this one appeared`}. An approver must say on the request message whether it is ours.`,
        ...appeared.map((c) => candidateLine(c, currency)),
      ].join('\n');
  }
}

export function settlementLine(d: SettlementRecord): string {
  const checked = d.checked ? ` after checking: “${escapeMrkdwn(d.checked, 500)}”` : '';
  const when = slackDate(d.at);
  switch (d.action) {
    case 'send_again':
      return `:repeat: ${mention(d.by)} decided to send it again ${when}${checked}`;
    case 'mark_not_sent':
      return `:heavy_multiplication_x: ${mention(d.by)} marked it as not sent ${when}${checked}`;
    case 'choose':
      return d.exchangeId === null
        ? `:mag: ${mention(d.by)} said none of the candidates is ours ${when}${checked}`
        : `:white_check_mark: ${mention(d.by)} said ${code(d.exchangeId, 80)} is ours ${when}${checked}`;
    case 'look_again':
      return `:mag: ${mention(d.by)} asked to look again ${when}`;
  }
}
