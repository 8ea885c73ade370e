/** The demo transcript's rendering of Slack date tokens in the reader's zone (src/stand-ins/demo/render.ts, with date-fns). */
import { describe, expect, it } from 'vitest';
import { formatSlackDate, type RenderContext } from '../../../src/stand-ins/demo/render.js';

const T0 = Date.UTC(2024, 4, 1, 23, 30, 15); // 2024-05-01 23:30:15 UTC
const ctx = (tzOffsetSeconds: number, nowMs = T0): RenderContext => ({
  names: new Map(),
  channels: new Map(),
  tzOffsetSeconds,
  now: () => nowMs,
});

describe('formatSlackDate', () => {
  it('fills the time and date tokens in the reader zone, across a day boundary', () => {
    const sec = T0 / 1000;
    expect(formatSlackDate(sec, '{date_num} {time_secs}', ctx(0))).toBe('2024-05-01 23:30:15');
    // Singapore is already on 2 May.
    expect(formatSlackDate(sec, '{date_num} {time}', ctx(8 * 3600))).toBe('2024-05-02 07:30');
    expect(formatSlackDate(sec, '{date_short}', ctx(-(5 * 3600 + 1800)))).toBe('1 May 2024');
  });

  it('says today, tomorrow and yesterday as the reader counts days', () => {
    const sec = T0 / 1000;
    expect(formatSlackDate(sec, '{date_short_pretty} {time}', ctx(0))).toBe('today 23:30');
    expect(formatSlackDate(sec, '{date_short_pretty}', ctx(0, T0 - 86_400_000))).toBe('tomorrow');
    expect(formatSlackDate(sec, '{date_short_pretty}', ctx(0, T0 + 86_400_000))).toBe('yesterday');
    // Now is 1 May 23:30 UTC = 2 May 07:30 in Singapore, and so is the time shown: today there too.
    expect(formatSlackDate(sec, '{date_short_pretty}', ctx(8 * 3600))).toBe('today');
    expect(formatSlackDate(sec, '{date_short_pretty}', ctx(0, T0 + 3 * 86_400_000))).toBe('1 May 2024');
  });
});
