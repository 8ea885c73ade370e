/** Which messages make a channel's log and a thread, in order. */
import type { LocalDeskMessage } from '../../protocol.js';
import { compareTs } from './time.js';

const isTopLevel = (m: LocalDeskMessage): boolean => !m.threadTs || m.threadTs === m.ts;

export function channelLog(messages: LocalDeskMessage[], channel: string): LocalDeskMessage[] {
  return messages.filter((m) => m.channel === channel && isTopLevel(m)).sort((a, b) => compareTs(a.ts, b.ts));
}

export function repliesOf(messages: LocalDeskMessage[], channel: string, ts: string): LocalDeskMessage[] {
  return messages
    .filter((m) => m.channel === channel && m.threadTs === ts && m.ts !== ts)
    .sort((a, b) => compareTs(a.ts, b.ts));
}

/** The newest ts in a channel, replies included (for unread marks). */
export function latestTs(messages: LocalDeskMessage[], channel: string): string | undefined {
  let latest: string | undefined;
  for (const m of messages) if (m.channel === channel && (!latest || compareTs(m.ts, latest) > 0)) latest = m.ts;
  return latest;
}
