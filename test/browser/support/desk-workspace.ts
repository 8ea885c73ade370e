/**
 * The workspace the page test shows: channels, people and messages whose Block Kit comes from the
 * bot's own builders (a pending and a completed withdrawal with its thread, a refusal, App Home).
 */
import type { LocalDeskMessage, Person, SandboxState, Snapshot } from '../../../src/stand-ins/local-desk/protocol.js';
import { threadPost, statusLineFor, type ThreadEvent } from '../../../src/bot/slack/approvals/thread-status.js';
import { refusalReply } from '../../../src/bot/slack/kit/refusal-text.js';
import { homeView } from '../../../src/bot/slack/home/home-view.js';
import { AT, PENDING_REQUEST, PEOPLE, pendingApproval } from '../../stand-ins/local-desk/support/bot-views.js';

export const CHANNELS = {
  approvals: { id: 'C0APPROVALS', name: 'desk-approvals', kind: 'channel', purpose: 'Requests and their approvals' },
  compliance: { id: 'C0COMPLY', name: 'desk-compliance', kind: 'channel', purpose: 'Deposits to declare' },
  desk: { id: 'C0DESK', name: 'desk', kind: 'channel', purpose: 'Type commands here' },
  dm: { id: 'D0BOT', name: 'Desk Bot', kind: 'dm', purpose: 'Direct messages from the bot' },
} as const;

export const people: Person[] = Object.values(PEOPLE).map((p) => ({ ...p }));

/** Message ts from the fixtures' clock: seconds + six digits, as Slack writes them. */
export const tsAt = (ms: number, seq = 0): string => `${Math.floor(ms / 1000)}.${String(seq).padStart(6, '0')}`;

export const PENDING_TS = tsAt(AT, 1);
export const DONE_TS = tsAt(AT - 3_600_000, 1);

const bot = { kind: 'bot' } as const;

const DONE_EVENTS: ThreadEvent[] = [
  { type: 'executing', at: AT - 3_000_000 },
  { type: 'submitted', at: AT - 2_990_000, exchangeId: 'wd_8f3a', status: 'processing' },
  {
    type: 'completed',
    at: AT - 2_400_000,
    explorerUrl: 'https://explorer.example/tx/0xabc',
    transactionHash: '0x9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  },
];

/** A request approved an hour ago and completed, with its thread. */
function completedRequest(): LocalDeskMessage[] {
  const approvals = [
    { userId: PEOPLE.approver1.id, at: AT - 3_100_000 },
    { userId: PEOPLE.approver2.id, at: AT - 3_050_000 },
  ];
  const main = pendingApproval({
    requestId: 'R2DONE',
    createdAt: AT - 3_600_000,
    approvals,
    verdict: { outcome: 'approved', at: AT - 3_050_000 },
    status: statusLineFor(DONE_EVENTS[2]!),
  });
  return [
    { channel: CHANNELS.approvals.id, ts: DONE_TS, ...main, edited: true, author: bot },
    ...DONE_EVENTS.map((e, i) => ({
      channel: CHANNELS.approvals.id,
      ts: tsAt(e.at, 2 + i),
      threadTs: DONE_TS,
      ...threadPost(e),
      author: bot,
    })),
  ];
}

export function traderSnapshot(): Omit<Snapshot, 'version'> {
  return {
    me: PEOPLE.trader.id,
    people,
    channels: Object.values(CHANNELS).map((c) => ({ ...c })),
    commandChannel: CHANNELS.desk.id,
    messages: [
      ...completedRequest(),
      { channel: CHANNELS.approvals.id, ts: PENDING_TS, ...pendingApproval(), author: bot },
      {
        channel: CHANNELS.approvals.id,
        ts: tsAt(AT + 60_000, 1),
        text: refusalReply('You cannot approve your own request.'),
        ephemeral: true,
        author: bot,
      },
      {
        channel: CHANNELS.desk.id,
        ts: tsAt(AT - 4_000_000),
        text: '/withdraw crypto',
        author: { kind: 'person', id: PEOPLE.trader.id },
      },
      {
        channel: CHANNELS.dm.id,
        ts: tsAt(AT - 2_400_000),
        text: ':white_check_mark: Your crypto withdrawal `R2DONE` *completed*. <https://explorer.example/tx/0xabc|View on the explorer>',
        author: bot,
      },
    ],
    modals: [],
    undrawn: [],
  };
}

export function approverSnapshot(): Omit<Snapshot, 'version'> {
  return {
    ...traderSnapshot(),
    me: PEOPLE.approver1.id,
    messages: traderSnapshot().messages.filter((m) => !m.ephemeral),
    home: homeView({
      userId: PEOPLE.approver1.id,
      waitingForMe: [
        {
          requestId: 'R7K2QX',
          requesterId: PEOPLE.trader.id,
          createdAt: AT,
          request: PENDING_REQUEST,
          snapshotHash: '3f2a9c',
          requiredApprovals: 2,
          approvals: [],
        },
      ],
      myOpen: [],
      recent: [],
      isApprover: true,
      isRequester: false,
      at: AT,
      sandbox: true,
    }) as unknown as Record<string, unknown>,
  };
}

export function outsiderSnapshot(): Omit<Snapshot, 'version'> {
  return {
    ...traderSnapshot(),
    me: PEOPLE.outsider.id,
    messages: [
      {
        channel: CHANNELS.desk.id,
        ts: tsAt(AT),
        text: refusalReply("This is for the desk's members only."),
        ephemeral: true,
        author: bot,
      },
    ],
  };
}

export const SANDBOX: SandboxState = {
  now: AT,
  prices: [
    { symbol: 'BTC-SGD', price: '88250.5' },
    { symbol: 'ETH-SGD', price: '4210' },
  ],
  currencies: ['BTC', 'ETH', 'USDT', 'SGD'],
  faults: ['slow on POST /crypto/withdrawals, next 2'],
};
