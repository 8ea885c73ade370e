// One user's App Home: requests waiting for my approval (with buttons), my open requests, recent activity.
import { BLOCK } from '../kit/slack-ids.js';
import {
  context,
  divider,
  fitBlocks,
  header,
  sandboxBanner,
  section,
  type HomeView,
  type KnownBlock,
} from '../kit/blocks.js';
import {
  approvalButtons,
  headline,
  progressLine,
  groupNeeds,
  actingDelegatesText,
  requestBlocks,
  type ApprovalMessageInput,
} from '../approvals/approval-message.js';
import { slackDate } from '../kit/format.js';
import { LIMITS } from '../kit/limits.js';
import { joinWithMore, linesWithMore, moreNote, packLines } from '../kit/cut-lists.js';
import { KIND_LABEL, type Verdict } from '../approvals/request-view.js';
import { questionBlocks } from '../approvals/person-question.js';
import type { DeliveryProblem } from '../../engine/request-reads.js';
import type { RequestRecord } from '../../domain/record.js';
import { approvalInput } from '../approvals/from-record.js';
import { code, escapeMrkdwn } from '../kit/mrkdwn.js';
import { timeLeftText } from './time-left.js';

/** A request as App Home shows it: the approval message's own fields, without its expiry, notice and banner. */
export type HomeRequest = Pick<
  ApprovalMessageInput,
  | 'requestId'
  | 'requesterId'
  | 'createdAt'
  | 'request'
  | 'snapshotHash'
  | 'requiredApprovals'
  | 'approvals'
  | 'rule'
  | 'tally'
  | 'actingDelegates'
  | 'verdict'
  | 'status'
  | 'question'
  | 'expiresAt'
>;

/** A record as an App Home card or line: the approval message's fields (its deadline while it waits), minus what only it shows. */
export function homeRequestOf(r: RequestRecord): HomeRequest {
  const { notice: _notice, sandbox: _sandbox, settlements: _decisions, ...card } = approvalInput(r, false);
  return card;
}

export interface HomeViewInput {
  userId: string;
  /** Pending requests this user may still approve. */
  waitingForMe: readonly HomeRequest[];
  /** This user's requests not yet finished. */
  myOpen: readonly HomeRequest[];
  /** Latest finished requests of the desk, newest first. */
  recent: readonly HomeRequest[];
  isApprover: boolean;
  isRequester: boolean;
  /** False for someone outside the desk: no desk data at all. */
  isDeskMember?: boolean;
  /** The user's delegation lines: who approves in their place, whom they approve for (`/desk delegate`). */
  delegationLines?: readonly string[];
  /** True when the user approves in an approver's place now. */
  actsAsDelegate?: boolean;
  /** Messages Slack keeps refusing (approvers only): a person must fix the channel, membership or token. */
  deliveryProblems?: readonly DeliveryProblem[];
  at: number;
  sandbox: boolean;
}

/** Cards with buttons cost about 4 blocks; keep within Slack's 100 blocks per view. */
const MAX_CARDS = 12;
const MAX_LINES = 15;
/** Delivery problems (one line per Slack error) shown; a few sections at most. */
const PROBLEM_LINES = 15;
/** Request ids named in one delivery-problem line; the rest are counted. */
const PROBLEM_IDS_SHOWN = 10;
const PROBLEM_IDS_CHARS = 400;
/** Finished requests shown under "Recent activity" (homes.ts reads one more, to know whether to say so). */
export const RECENT_SHOWN = 10;

export function homeView(v: HomeViewInput): HomeView {
  const blocks: KnownBlock[] = [];
  if (v.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  blocks.push(header('Desk approvals'));
  blocks.push(
    context([`Updated ${slackDate(v.at, '{date_short_pretty} {time}')} · /withdraw, /trade, /balances, /desk help`]),
  );

  if (v.isApprover && (v.deliveryProblems?.length ?? 0) > 0) blocks.push(...deliveryProblemBlocks(v.deliveryProblems!));

  if (v.isApprover) {
    blocks.push(divider(), header(`Waiting for your approval (${v.waitingForMe.length})`));
    if ((v.delegationLines?.length ?? 0) > 0) blocks.push(context([v.delegationLines!.join('\n')]));
    if (v.waitingForMe.length === 0) blocks.push(section('Nothing waits for you.'));
    for (const r of v.waitingForMe.slice(0, MAX_CARDS)) {
      // Waiting for approval, or (approved, outcome unknown) for a person's settlement.
      const id = `:${r.requestId}`;
      blocks.push(
        ...requestBlocks(r, id),
        context([withTimeLeft(progressLine(r), r, v.at)]),
        ...(r.question ? questionBlocks(r.question) : [approvalButtons(r, id)]),
      );
    }
    if (v.waitingForMe.length > MAX_CARDS) {
      blocks.push(
        context([
          moreNote(
            v.waitingForMe.length - MAX_CARDS,
            '`/desk pending` lists every request waiting for approval, and each has its message with the buttons in the approval channel.',
          ),
        ]),
      );
    }
  }

  if (v.isRequester || v.myOpen.length > 0) {
    blocks.push(divider(), header(`Your open requests (${v.myOpen.length})`));
    if (v.myOpen.length === 0) blocks.push(section('None.'));
    else
      blocks.push(
        ...linesWithMore(
          v.myOpen.map((r) => withTimeLeft(requestLine(r), r, v.at)),
          MAX_LINES,
          '`/desk pending` lists those still waiting for approval, each has its message in the approval channel, and `/desk status <id>` shows any one.',
        ),
      );
  }

  if (v.isDeskMember === false) {
    blocks.push(
      divider(),
      section(
        "This bot serves the desk's traders, approvers and compliance officers. Ask the desk to add you if you need it.",
      ),
    );
  } else {
    blocks.push(divider(), header('Recent activity'));
    if (v.recent.length === 0) blocks.push(section('No finished requests yet.'));
    else {
      blocks.push(...packLines(v.recent.slice(0, RECENT_SHOWN).map(requestLine)).map((chunk) => section(chunk)));
      // homes.ts reads one more than shown: there are older ones, their number unread.
      if (v.recent.length > RECENT_SHOWN)
        blocks.push(
          context([
            'Older finished requests are not shown here: each keeps its message in the approval channel, and `/desk status <id>` shows any one.',
          ]),
        );
    }
  }

  return {
    type: 'home',
    blocks: fitBlocks(
      blocks,
      LIMITS.viewBlocks,
      '`/desk pending` lists every request waiting for approval, and `/desk status <id>` shows any one.',
    ),
  };
}

/** Slack is refusing the desk's messages: what, since when, how many wait. Kept until delivered. */
function deliveryProblemBlocks(problems: readonly DeliveryProblem[]): KnownBlock[] {
  const byError = new Map<string, DeliveryProblem[]>();
  for (const p of problems) byError.set(p.error, [...(byError.get(p.error) ?? []), p]);
  const lines = [...byError].map(([error, ps]) => {
    const since = Math.min(...ps.map((p) => p.since));
    const requests = joinWithMore(
      [...new Set(ps.map((p) => p.requestId))].map((id) => code(id, 40)),
      PROBLEM_IDS_CHARS,
      PROBLEM_IDS_SHOWN,
    );
    return `• ${code(error, 200)} since ${slackDate(since)}: ${ps.length} message(s) waiting (${requests})${ps.some((p) => p.permanent) ? ' · needs a person: check that channel, that the bot is in it, and its token' : ''}`;
  });
  const lead =
    "Messages about these requests have not reached Slack (the channel or DM is in each line). They are kept and sent as soon as Slack takes them; the bot's log names each one.";
  const blocks = [
    divider(),
    header(':warning: Slack delivery problem'),
    ...packLines([lead, ...lines.slice(0, PROBLEM_LINES)]).map((chunk) => section(chunk)),
  ];
  if (lines.length > PROBLEM_LINES)
    blocks.push(
      context([
        moreNote(lines.length - PROBLEM_LINES, "the bot's log names each message Slack refused, with its error."),
      ]),
    );
  return blocks;
}

/** One request in a list: "Trade `R7K2QX` Buy 0.5 BTC with SGD · 1 of 2 approvals". */
export function requestLine(r: HomeRequest): string {
  const state = r.verdict
    ? decisionWord(r.verdict)
    : `${groupNeeds(r.tally, r.approvals) ?? `${r.approvals.length} of ${r.requiredApprovals} approvals`}${actingDelegatesText(r.actingDelegates)}`;
  const status = r.status ? ` · ${escapeMrkdwn(r.status.text, 200)}` : '';
  return `${KIND_LABEL[r.request.kind]} ${code(r.requestId, 40)} ${escapeMrkdwn(headline(r.request), 200)} · ${state}${status} · ${slackDate(r.createdAt, '{date_short} {time}')}`;
}

/** A waiting request's line with how long it has left: "… · 1 of 2 approvals · 3 h 10 min left". */
function withTimeLeft(line: string, r: HomeRequest, now: number): string {
  return r.expiresAt === undefined || r.verdict ? line : `${line} · :hourglass: ${timeLeftText(r.expiresAt, now)}`;
}

function decisionWord(d: Verdict): string {
  return { approved: 'approved', rejected: 'rejected', cancelled: 'cancelled', expired: 'expired' }[d.outcome];
}
