/** Message timestamps ("1714572180.000100") read and drawn in the viewer's zone. */
import { formatSlackDate, wallClock } from '../mrkdwn/dates.js';

export const tsSeconds = (ts: string): number => Number(ts);

/** Order of two Slack ts strings, exactly (whole seconds, then the fraction as digits). */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = ''] = a.split('.');
  const [bs = '0', bf = ''] = b.split('.');
  return Number(as) - Number(bs) || af.padEnd(6, '0').localeCompare(bf.padEnd(6, '0'));
}

export const messageTime = (ts: string, tz: string, now: number): string => formatSlackDate(tsSeconds(ts), '{time}', tz, now);

export const messageDateTime = (ts: string, tz: string, now: number): string => formatSlackDate(tsSeconds(ts), '{date_long} {time_secs}', tz, now);

export const dayLabel = (ts: string, tz: string, now: number): string => formatSlackDate(tsSeconds(ts), '{day_divider_pretty}', tz, now);

/** A calendar day key in the viewer's zone, to put a divider between days. */
export function dayKey(ts: string, tz: string): string {
  const w = wallClock(tsSeconds(ts) * 1000, tz);
  return `${w.year}-${w.month}-${w.day}`;
}
