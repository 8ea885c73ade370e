// Message times in the viewer's zone. The stand-in's ts are a sequence, not times, so the desk's own
// receipt time (`at`, the sandbox's clock in the preview) comes first; ts is the fallback.
import type { LocalDeskMessage } from '../../protocol.js';
import { formatSlackDate, formatSlackDateWithZone, wallClock } from '../mrkdwn/dates.js';

export const postedSeconds = (m: Pick<LocalDeskMessage, 'ts' | 'at'>): number =>
  m.at !== undefined ? Math.floor(m.at / 1000) : Number(m.ts);

/** Order of two Slack ts strings, exactly (whole seconds, then the fraction as digits). */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = ''] = a.split('.');
  const [bs = '0', bf = ''] = b.split('.');
  return Number(as) - Number(bs) || af.padEnd(6, '0').localeCompare(bf.padEnd(6, '0'));
}

export const messageTime = (seconds: number, tz: string, now: number): string =>
  formatSlackDate(seconds, '{time}', tz, now);

export const messageDateTime = (seconds: number, tz: string, now: number): string =>
  formatSlackDateWithZone(seconds, '{date_long} {time_secs}', tz, now);

export const dayLabel = (seconds: number, tz: string, now: number): string =>
  formatSlackDate(seconds, '{day_divider_pretty}', tz, now);

/** A calendar day key in the viewer's zone, to put a divider between days. */
export function dayKey(seconds: number, tz: string): string {
  const w = wallClock(seconds * 1000, tz);
  return `${w.year}-${w.month}-${w.day}`;
}
