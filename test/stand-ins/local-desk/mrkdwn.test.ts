/**
 * The page's mrkdwn parser, on the shapes the bot writes (src/bot/slack/kit) and the rules Slack
 * applies: what is formatting and what is text.
 */
import { describe, expect, it } from 'vitest';
import { parseMrkdwn, parseInline, type MrkdwnContext } from '../../../src/stand-ins/local-desk/page/mrkdwn/parse.js';
import { slackDate, utcText } from '../../../src/bot/slack/kit/format.js';
import { code, escapeMrkdwn, link, mention } from '../../../src/bot/slack/kit/mrkdwn.js';

const NOW = Date.UTC(2024, 4, 1, 14, 3, 0); // 2024-05-01 14:03 UTC
const ctx: MrkdwnContext = {
  userName: (id) => ({ U0TRADER: 'Tina Trader', U0APPROVE: 'Alex Approver' })[id],
  channelName: (id) => ({ C0APPROVALS: 'desk-approvals' })[id],
  timeZone: 'Asia/Singapore',
  now: NOW,
};
const line = (text: string, c: MrkdwnContext = ctx) => parseInline(text, c);

describe('inline formatting', () => {
  it('reads bold, italic, strike and code, nested', () => {
    expect(line('*Requested by* _now_ ~old~ `R7K2QX`')).toEqual([
      { type: 'bold', children: [{ type: 'text', text: 'Requested by' }] },
      { type: 'text', text: ' ' },
      { type: 'italic', children: [{ type: 'text', text: 'now' }] },
      { type: 'text', text: ' ' },
      { type: 'strike', children: [{ type: 'text', text: 'old' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'R7K2QX' },
    ]);
    expect(line('*bold _and italic_*')).toEqual([
      {
        type: 'bold',
        children: [
          { type: 'text', text: 'bold ' },
          { type: 'italic', children: [{ type: 'text', text: 'and italic' }] },
        ],
      },
    ]);
  });

  it('leaves markers that touch words or spaces as text, as Slack does', () => {
    expect(line('snake_case_name and 2*3*4')).toEqual([{ type: 'text', text: 'snake_case_name and 2*3*4' }]);
    expect(line('a * b * c')).toEqual([{ type: 'text', text: 'a * b * c' }]);
    expect(line('*unclosed')).toEqual([{ type: 'text', text: '*unclosed' }]);
    expect(line('(*yes*)')).toEqual([
      { type: 'text', text: '(' },
      { type: 'bold', children: [{ type: 'text', text: 'yes' }] },
      { type: 'text', text: ')' },
    ]);
  });

  it('unescapes &amp; &lt; &gt; in text and code, never reading them as tokens', () => {
    const escaped = escapeMrkdwn('<!channel> pay me & <http://evil|you>');
    // The URL shows as itself (Slack auto-links it); the forged label never becomes a link.
    expect(line(escaped)).toEqual([
      { type: 'text', text: '<!channel> pay me & <' },
      { type: 'link', url: 'http://evil', text: 'http://evil' },
      { type: 'text', text: '|you>' },
    ]);
    expect(line(code('a<b'))).toEqual([{ type: 'code', text: 'a<b' }]);
  });

  it('reads links with and without a label, and refuses non-web links', () => {
    expect(line(link('https://explorer.example/tx/0xabc?a=1&b=2', 'View on explorer'))).toEqual([
      { type: 'link', url: 'https://explorer.example/tx/0xabc?a=1&b=2', text: 'View on explorer' },
    ]);
    expect(line('<https://example.com>')).toEqual([
      { type: 'link', url: 'https://example.com', text: 'https://example.com' },
    ]);
    expect(line('<javascript:alert(1)|click>')).toEqual([{ type: 'text', text: 'click' }]);
    expect(line('see https://example.com/x.')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', url: 'https://example.com/x', text: 'https://example.com/x' },
      { type: 'text', text: '.' },
    ]);
    expect(line('see https://example.com', { ...ctx, verbatim: true })).toEqual([
      { type: 'text', text: 'see https://example.com' },
    ]);
  });

  it('names people and channels from the snapshot, and broadcasts', () => {
    expect(line(`${mention('U0TRADER')} in <#C0APPROVALS> <!here>`)).toEqual([
      { type: 'mention', kind: 'user', id: 'U0TRADER', text: '@Tina Trader' },
      { type: 'text', text: ' in ' },
      { type: 'mention', kind: 'channel', id: 'C0APPROVALS', text: '#desk-approvals' },
      { type: 'text', text: ' ' },
      { type: 'mention', kind: 'broadcast', id: 'here', text: '@here' },
    ]);
    expect(line('<@U0NOBODY|someone> <#C0OTHER|general>')).toEqual([
      { type: 'mention', kind: 'user', id: 'U0NOBODY', text: '@someone' },
      { type: 'text', text: ' ' },
      { type: 'mention', kind: 'channel', id: 'C0OTHER', text: '#general' },
    ]);
  });

  it('draws emoji it knows and leaves the others as typed', () => {
    expect(line(':white_check_mark: Approved :not_an_emoji:')).toEqual([
      { type: 'emoji', name: 'white_check_mark', char: '\u2705' },
      { type: 'text', text: ' Approved :not_an_emoji:' },
    ]);
  });
});

describe("dates in the reader's time zone", () => {
  it("draws the bot's slackDate token in Singapore and New York, not the UTC fallback", () => {
    const token = slackDate(NOW);
    expect(token).toContain(utcText(NOW));
    // The local desk names the zone after a clock time, so readers in different zones agree on one expiry.
    expect(line(token)).toEqual([{ type: 'date', text: 'Today 10:03 PM GMT+8', iso: '2024-05-01T14:03:00.000Z' }]);
    expect(line(token, { ...ctx, timeZone: 'America/New_York' })).toEqual([
      { type: 'date', text: 'Today 10:03 AM EDT', iso: '2024-05-01T14:03:00.000Z' },
    ]);
    expect(line(token, { ...ctx, timeZone: 'Europe/London' })).toEqual([
      { type: 'date', text: 'Today 3:03 PM GMT+1', iso: '2024-05-01T14:03:00.000Z' },
    ]);
  });

  it("knows Slack's tokens", () => {
    const at = Math.floor(Date.UTC(2024, 1, 18, 6, 39, 42) / 1000); // Sun 18 Feb 2024 06:39:42 UTC
    const utc = { ...ctx, timeZone: 'UTC' };
    const draw = (format: string) => (line(`<!date^${at}^${format}|fallback>`, utc)[0] as { text: string }).text;
    expect(draw('{date_num}')).toBe('2024-02-18');
    expect(draw('{date}')).toBe('February 18th, 2024');
    expect(draw('{date_short}')).toBe('Feb 18, 2024');
    expect(draw('{date_long}')).toBe('Sunday, February 18th, 2024');
    expect(draw('{date_pretty}')).toBe('February 18th, 2024');
    expect(draw('{time}')).toBe('6:39 AM UTC');
    expect(draw('{time_secs}')).toBe('6:39:42 AM UTC');
    expect(draw('at {time} on {date_short_pretty}')).toBe('at 6:39 AM UTC on Feb 18, 2024');
    expect(draw('{unknown} {date_num}')).toBe('{unknown} 2024-02-18');
  });

  it("says yesterday and tomorrow by the reader's calendar, lower case after the start", () => {
    const yesterday = Math.floor((NOW - 86_400_000) / 1000);
    expect(line(`<!date^${yesterday}^since {date_pretty}|x>`)).toMatchObject([
      { type: 'date', text: 'since yesterday' },
    ]);
    // 15:30 UTC is already the next day in Singapore (UTC+8).
    const lateUtc = Math.floor(Date.UTC(2024, 4, 1, 16, 30) / 1000);
    expect(line(`<!date^${lateUtc}^{date_short_pretty}|x>`)).toMatchObject([{ type: 'date', text: 'Tomorrow' }]);
  });

  it('shows the fallback for a token it cannot read, and links a date with a link', () => {
    expect(line('<!date^notanumber^{date}|2024-05-01 14:03 UTC>')).toEqual([
      { type: 'text', text: '2024-05-01 14:03 UTC' },
    ]);
    expect(line(`<!date^${NOW / 1000}^{time}^https://example.com/t|x>`)).toMatchObject([
      { type: 'date', text: '10:03 PM GMT+8', url: 'https://example.com/t' },
    ]);
  });
});

describe('blocks of text', () => {
  it('keeps line breaks, quotes > lines and leaves code fences unformatted', () => {
    const text = '*Rejected* by <@U0APPROVE>\n>too *big*\n>for today\n```\n*not bold* &lt;x&gt;\n```\nafter';
    expect(parseMrkdwn(text, ctx)).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'bold', children: [{ type: 'text', text: 'Rejected' }] },
          { type: 'text', text: ' by ' },
          { type: 'mention', kind: 'user', id: 'U0APPROVE', text: '@Alex Approver' },
        ],
      },
      {
        type: 'quote',
        children: [
          { type: 'text', text: 'too ' },
          { type: 'bold', children: [{ type: 'text', text: 'big' }] },
          { type: 'break' },
          { type: 'text', text: 'for today' },
        ],
      },
      { type: 'pre', text: '*not bold* <x>' },
      { type: 'paragraph', children: [{ type: 'text', text: 'after' }] },
    ]);
  });

  it('reads a quoted line written escaped (&gt;) as a quote, as Slack does', () => {
    expect(parseMrkdwn('&gt; quoted', ctx)).toEqual([{ type: 'quote', children: [{ type: 'text', text: 'quoted' }] }]);
  });
});
