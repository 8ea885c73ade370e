// Slack's mrkdwn read into a small tree the page draws (bold, code, quotes, links, mentions, dates,
// emoji, entities). Pure: names, time zone and "now" come in, so text reads as each viewer sees it.
import { formatSlackDateWithZone } from './dates.js';
import { emojiFor } from './emoji.js';

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; url: string; text: string }
  | { type: 'mention'; kind: 'user' | 'channel' | 'broadcast' | 'usergroup'; id: string; text: string }
  | { type: 'date'; text: string; iso?: string; url?: string }
  | { type: 'emoji'; name: string; char: string }
  | { type: 'break' };

export type MrkdwnBlock =
  { type: 'paragraph'; children: Inline[] } | { type: 'quote'; children: Inline[] } | { type: 'pre'; text: string };

export interface MrkdwnContext {
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  timeZone: string;
  /** Epoch ms, for "today" and "{ago}". */
  now: number;
  /** Slack's `verbatim: true`: bare URLs are not turned into links. */
  verbatim?: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

export function unescapeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (e) => ENTITIES[e] ?? e);
}

/** The whole text: code fences first (nothing inside them is formatted), then quotes and lines. */
export function parseMrkdwn(text: string, ctx: MrkdwnContext): MrkdwnBlock[] {
  const blocks: MrkdwnBlock[] = [];
  const fence = /```([\s\S]*?)```/g;
  let last = 0;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    // The newlines around a fence belong to it, not to the text beside it.
    blocks.push(...lineBlocks(text.slice(last, m.index).replace(/\n$/, ''), ctx));
    blocks.push({ type: 'pre', text: unescapeEntities((m[1] ?? '').replace(/^\n/, '').replace(/\n$/, '')) });
    last = m.index + m[0].length;
    if (text[last] === '\n') last += 1;
  }
  blocks.push(...lineBlocks(text.slice(last), ctx));
  return blocks;
}

const QUOTE = /^(?:>|&gt;) ?/;

/** Runs of quoted lines become quotes; the other lines one paragraph each run, with line breaks kept. */
function lineBlocks(text: string, ctx: MrkdwnContext): MrkdwnBlock[] {
  if (text === '') return [];
  const out: MrkdwnBlock[] = [];
  for (const line of text.split('\n')) {
    const quoted = QUOTE.test(line);
    const body = quoted ? line.replace(QUOTE, '') : line;
    const kind = quoted ? 'quote' : 'paragraph';
    const prev = out[out.length - 1];
    if (prev && prev.type === kind) prev.children.push({ type: 'break' }, ...parseInline(body, ctx));
    else out.push({ type: kind, children: parseInline(body, ctx) });
  }
  return out;
}

const MARKS: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };

/** Word characters: a marker touching one on its outer side is not formatting (snake_case, 2*3*4). */
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
/** A bare URL, as Slack auto-links it: up to a space, a `|` or an escaped bracket. */
const URL_START = /^https?:\/\/(?:(?!&lt;|&gt;)[^\s<>|])+/;

/** One line of mrkdwn (fences and quotes already taken out). */
export function parseInline(line: string, ctx: MrkdwnContext): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ type: 'text', text: unescapeEntities(text) });
    text = '';
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    const prev = i === 0 ? undefined : line[i - 1];
    if (ch === '<') {
      const end = line.indexOf('>', i + 1);
      const node = end === -1 ? undefined : token(line.slice(i + 1, end), ctx);
      if (node) {
        flush();
        out.push(node);
        i = end + 1;
        continue;
      }
    } else if (ch === '`') {
      const end = line.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ type: 'code', text: unescapeEntities(line.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    } else if (MARKS[ch] && opens(line, i)) {
      const end = closing(line, i);
      if (end !== -1) {
        flush();
        out.push({ type: MARKS[ch], children: parseInline(line.slice(i + 1, end), ctx) });
        i = end + 1;
        continue;
      }
    } else if (ch === ':') {
      const m = /^:([a-z0-9_+-]+):/.exec(line.slice(i));
      const char = m ? emojiFor(m[1]!) : undefined;
      if (m && char) {
        flush();
        out.push({ type: 'emoji', name: m[1]!, char });
        i += m[0].length;
        continue;
      }
    } else if (ch === 'h' && !ctx.verbatim && (prev === undefined || !WORD.test(prev))) {
      const m = URL_START.exec(line.slice(i));
      if (m) {
        const url = m[0].replace(/[.,;:!?)'"]+$/, '');
        flush();
        out.push({ type: 'link', url: unescapeEntities(url), text: unescapeEntities(url) });
        i += url.length;
        continue;
      }
    }
    text += ch;
    i += 1;
  }
  flush();
  return out;
}

/** A marker opens when nothing word-like touches it from outside and no space follows it. */
function opens(line: string, i: number): boolean {
  const prev = i === 0 ? undefined : line[i - 1];
  const next = line[i + 1];
  return (prev === undefined || !WORD.test(prev)) && next !== undefined && !SPACE.test(next) && next !== line[i];
}

/** The matching closing marker on the same line: no space before it, nothing word-like after; `<…>` tokens are skipped. */
function closing(line: string, open: number): number {
  const mark = line[open]!;
  for (let k = open + 2; k < line.length; k++) {
    const c = line[k]!;
    if (c === '<') {
      const end = line.indexOf('>', k + 1);
      if (end !== -1) k = end;
      continue;
    }
    if (c !== mark) continue;
    const before = line[k - 1]!;
    const after = line[k + 1];
    if (!SPACE.test(before) && (after === undefined || !WORD.test(after))) return k;
  }
  return -1;
}

const SAFE_URL = /^(https?:|mailto:)/i;

/** The inside of `<…>`: a mention, a special command, a date or a link; undefined when it is none. */
function token(body: string, ctx: MrkdwnContext): Inline | undefined {
  if (body === '') return undefined;
  const bar = body.indexOf('|');
  const head = bar === -1 ? body : body.slice(0, bar);
  const label = bar === -1 ? undefined : unescapeEntities(body.slice(bar + 1));
  switch (head[0]) {
    case '@':
      return {
        type: 'mention',
        kind: 'user',
        id: head.slice(1),
        text: `@${ctx.userName(head.slice(1)) ?? label ?? head.slice(1)}`,
      };
    case '#':
      return {
        type: 'mention',
        kind: 'channel',
        id: head.slice(1),
        text: `#${ctx.channelName(head.slice(1)) ?? label ?? head.slice(1)}`,
      };
    case '!':
      return special(head.slice(1), label, ctx);
    default: {
      const url = unescapeEntities(head);
      // Only web and mail links are followable; anything else (javascript:, data:) is shown as text.
      if (!SAFE_URL.test(url)) return { type: 'text', text: label ?? url };
      return { type: 'link', url, text: label ?? url };
    }
  }
}

function special(command: string, label: string | undefined, ctx: MrkdwnContext): Inline {
  const [name = '', ...args] = command.split('^');
  if (name === 'here' || name === 'channel' || name === 'everyone')
    return { type: 'mention', kind: 'broadcast', id: name, text: `@${name}` };
  if (name === 'subteam') return { type: 'mention', kind: 'usergroup', id: args[0] ?? '', text: label ?? '@group' };
  if (name === 'date') {
    const [epoch, format, link] = args;
    const seconds = Number(epoch);
    if (!Number.isFinite(seconds) || epoch === '' || format === undefined) return { type: 'text', text: label ?? '' };
    const text = formatSlackDateWithZone(seconds, unescapeEntities(format), ctx.timeZone, ctx.now);
    const url = link && SAFE_URL.test(unescapeEntities(link)) ? unescapeEntities(link) : undefined;
    return { type: 'date', text, iso: new Date(seconds * 1000).toISOString(), ...(url ? { url } : {}) };
  }
  return { type: 'text', text: label ?? `<!${command}>` };
}
