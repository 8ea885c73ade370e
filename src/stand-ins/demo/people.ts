// The demo's cast with Slack-format ids, so role checks run as in a workspace, and their shown names.
import { DESK_CHANNEL_NAMES } from '../preview/preview-cast.js';

export interface Person {
  id: string;
  name: string;
  /** What they do on the desk (shown once in the transcript's cast line). */
  role: string;
}

export const PEOPLE = {
  tara: { id: 'UTARA00001', name: 'Tara', role: 'trader' },
  ana: { id: 'UANA000001', name: 'Ana', role: 'approver' },
  ben: { id: 'UBEN000001', name: 'Ben', role: 'approver' },
  rita: { id: 'URITA00001', name: 'Rita', role: 'risk' },
  cleo: { id: 'UCLEO00001', name: 'Cleo', role: 'compliance' },
} as const satisfies Record<string, Person>;

export interface Channel {
  id: string;
  name: string;
}

/** The local desk's channels by name (DESK_CHANNEL_NAMES), with the demo's own ids. */
export const CHANNELS = {
  approvals: { id: 'CDESKAPPRV', name: DESK_CHANNEL_NAMES.approvals },
  compliance: { id: 'CCOMPLIANC', name: DESK_CHANNEL_NAMES.compliance },
  /** Where Tara types her slash commands. */
  commands: { id: 'CDESKCMDS1', name: DESK_CHANNEL_NAMES.commands },
} as const satisfies Record<string, Channel>;

/** Everyone's time zone: the desk sits in one office. */
export const DESK_TIME_ZONE = { tz: 'Asia/Singapore', tzOffsetSeconds: 8 * 3600 } as const;

export function namesById(): Map<string, string> {
  return new Map(Object.values(PEOPLE).map((p) => [p.id, p.name]));
}

export function channelsById(): Map<string, string> {
  return new Map(Object.values(CHANNELS).map((c) => [c.id, c.name]));
}
