// Who is on the preview desk: trader, approvers, compliance officer and one outsider (to see refusals).
// Time zones differ on purpose, so `<!date^…>` is seen in each viewer's own.
import { tzOffset } from '@date-fns/tz';
import type { FakeUser } from '../fake-slack/fake-slack-api.js';
import type { Cast } from '../local-desk/server/index.js';
import type { Person } from '../local-desk/protocol.js';

/** Ids in Slack's format so every role check runs as in a workspace (PREVIEW_DESK re-exports them). */
export const PREVIEW_IDS = {
  trader: 'UPREVTRADER',
  approvers: ['UPREVAPPR01', 'UPREVAPPR02', 'UPREVAPPR03'],
  /** Risk: the large withdrawals of the local desk's policy wait for them too (preview-policy.ts). */
  risk: 'UPREVRISK01',
  compliance: 'UPREVCOMPL1',
  outsider: 'UPREVOUTSDR',
  approvalChannel: 'CPREVAPPROVE',
  complianceChannel: 'CPREVCOMPLY',
  commandChannel: 'CPREVDESK01',
} as const;

/** The desk's channel names, one definition for the local desk and `npm run demo`. */
export const DESK_CHANNEL_NAMES = { commands: 'desk', approvals: 'desk-approvals', compliance: 'compliance' } as const;

export const PREVIEW_PEOPLE: readonly Person[] = [
  { id: PREVIEW_IDS.trader, name: 'Tara Trader', initials: 'TT', role: 'trader', tz: 'Asia/Singapore' },
  { id: PREVIEW_IDS.approvers[0], name: 'Ana Approver', initials: 'AA', role: 'approver', tz: 'Europe/London' },
  { id: PREVIEW_IDS.approvers[1], name: 'Ben Approver', initials: 'BA', role: 'approver', tz: 'America/New_York' },
  { id: PREVIEW_IDS.approvers[2], name: 'Dan Approver', initials: 'DA', role: 'approver', tz: 'Asia/Singapore' },
  { id: PREVIEW_IDS.risk, name: 'Rita Risk', initials: 'RR', role: 'approver', tz: 'Europe/Paris' },
  { id: PREVIEW_IDS.compliance, name: 'Cleo Compliance', initials: 'CC', role: 'compliance', tz: 'Europe/Zurich' },
  { id: PREVIEW_IDS.outsider, name: 'Otto Outsider', initials: 'OO', role: 'outsider', tz: 'UTC' },
];

export const PREVIEW_CAST: Cast = {
  people: [...PREVIEW_PEOPLE],
  channels: [
    {
      id: PREVIEW_IDS.commandChannel,
      name: DESK_CHANNEL_NAMES.commands,
      kind: 'channel',
      purpose: 'Type slash commands here: /withdraw, /trade, /balances, /desk, /counterparty',
    },
    {
      id: PREVIEW_IDS.approvalChannel,
      name: DESK_CHANNEL_NAMES.approvals,
      kind: 'channel',
      purpose: 'Every request, its approvals and its outcome, one thread each',
    },
    {
      id: PREVIEW_IDS.complianceChannel,
      name: DESK_CHANNEL_NAMES.compliance,
      kind: 'channel',
      purpose: 'Incoming deposits that need counterparty information',
    },
  ],
  commandChannel: PREVIEW_IDS.commandChannel,
  botName: 'Desk Bot',
};

/** The cast as the fake Slack API's users.info answers them: real name, time zone, its offset now. */
export function previewSlackUsers(now = new Date()): FakeUser[] {
  return PREVIEW_PEOPLE.map((p) => ({ id: p.id, real_name: p.name, tz: p.tz, tz_offset: tzOffset(p.tz, now) * 60 }));
}
