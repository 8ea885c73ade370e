// Block Kit as a person reads it, in plain text for the transcript (buttons as `[Approve]`, mrkdwn tokens
// resolved, dates in the reader's zone), read from the untyped JSON the bot sent.
import { tz } from '@date-fns/tz';
import { differenceInCalendarDays, format } from 'date-fns';
import { offsetZone } from '../../bot/slack/kit/format.js';

export interface RenderContext {
  names: ReadonlyMap<string, string>;
  channels: ReadonlyMap<string, string>;
  /** Offset of the readers' zone from UTC, seconds (users.info tz_offset). */
  tzOffsetSeconds: number;
  /** "Now" for "today" in date tokens. */
  now(): number;
}

type Json = Record<string, unknown>;

const EMOJI: Record<string, string> = {
  warning: '⚠️',
  white_check_mark: '✅',
  information_source: 'ℹ️',
  hourglass_flowing_sand: '⏳',
  hourglass: '⌛',
  construction: '🚧',
  test_tube: '🧪',
  x: '❌',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  arrows_counterclockwise: '🔄',
  repeat: '🔁',
  mag: '🔍',
  heavy_multiplication_x: '✖️',
  rotating_light: '🚨',
  outbox_tray: '📤',
  inbox_tray: '📥',
  large_blue_circle: '🔵',
  grey_question: '❔',
  double_vertical_bar: '⏸️',
  lock: '🔒',
  bank: '🏦',
};

/** A Slack date token's format, filled for the reader's zone ({time}, {time_secs}, {date_short_pretty}, …). */
export function formatSlackDate(epochSec: number, tokenFormat: string, ctx: RenderContext): string {
  const zone = { in: tz(offsetZone(ctx.tzOffsetSeconds)) };
  const at = epochSec * 1000;
  const days = differenceInCalendarDays(at, ctx.now(), zone);
  const date = format(at, 'd MMM yyyy', zone);
  const pretty = days === 0 ? 'today' : days === 1 ? 'tomorrow' : days === -1 ? 'yesterday' : date;
  return tokenFormat
    .replace(/\{time_secs\}/g, format(at, 'HH:mm:ss', zone))
    .replace(/\{time\}/g, format(at, 'HH:mm', zone))
    .replace(/\{date_short_pretty\}|\{date_pretty\}|\{date_long_pretty\}/g, pretty)
    .replace(/\{date_num\}/g, format(at, 'yyyy-MM-dd', zone))
    .replace(/\{date(_short|_long)?\}/g, date);
}

/** mrkdwn -> plain text: mentions, links, dates, bold/italic markers, emoji, entities. */
export function mrkdwnToText(text: string, ctx: RenderContext): string {
  let out = text.replace(/<([^<>]+)>/g, (_, inner: string) => token(inner, ctx));
  out = out.replace(
    /```([\s\S]*?)```/g,
    (_, body: string) =>
      `\n${body
        .replace(/^\n/, '')
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
  );
  out = out.replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,:;!?])/gm, '$1$2');
  out = out.replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,:;!?])/gm, '$1$2');
  // A raw ">" starts a quote; an escaped one (&gt;) is someone's text and stays a character.
  out = out.replace(/^>\s?/gm, '│ ');
  out = out.replace(/:([a-z0-9_+-]+):/g, (all, name: string) => EMOJI[name] ?? all);
  // Trim blank lines only: a code block's first line keeps its indent.
  return out
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\s*\n/, '')
    .trimEnd();
}

function token(inner: string, ctx: RenderContext): string {
  const [target = '', label] = splitOnce(inner, '|');
  if (target.startsWith('@')) return `@${label ?? ctx.names.get(target.slice(1)) ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${label ?? ctx.channels.get(target.slice(1)) ?? target.slice(1)}`;
  if (target.startsWith('!date^')) {
    const [, sec = '0', format = '{date_short_pretty} {time}'] = target.split('^');
    return formatSlackDate(Number(sec), format, ctx);
  }
  if (target.startsWith('!')) return `@${label ?? target.slice(1).replace(/^subteam\^/, '')}`;
  return label !== undefined ? `${label} (${target})` : target;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/** A text object (plain_text or mrkdwn) as plain text. */
export function textOf(t: unknown, ctx: RenderContext): string {
  if (!isObject(t)) return '';
  const text = typeof t.text === 'string' ? t.text : '';
  return t.type === 'mrkdwn' ? mrkdwnToText(text, ctx) : text;
}

/** What a person has typed or picked in a modal field, by block id (overrides the view's initial values). */
export type FilledValues = ReadonlyMap<string, string>;

/** One interactive element as it shows: `[Approve]`, `[Choose a currency ▾]`, `[0.05]`. */
export function elementText(el: unknown, ctx: RenderContext, filled?: string): string {
  if (!isObject(el)) return '';
  switch (el.type) {
    case 'button':
      return `[${textOf(el.text, ctx)}]`;
    case 'static_select':
    case 'external_select':
    case 'users_select':
    case 'conversations_select':
    case 'channels_select': {
      const chosen = filled ?? (isObject(el.initial_option) ? textOf(el.initial_option.text, ctx) : undefined);
      if (chosen !== undefined) return `[${chosen} ▾]`;
      const options = Array.isArray(el.options) ? el.options.filter(isObject).map((o) => textOf(o.text, ctx)) : [];
      const shown =
        options.length > 0
          ? ` (${options.slice(0, 6).join(' | ')}${options.length > 6 ? ` | …${options.length - 6} more` : ''})`
          : '';
      return `[${textOf(el.placeholder, ctx) || 'Choose'} ▾]${shown}`;
    }
    case 'radio_buttons': {
      const options = Array.isArray(el.options) ? el.options.filter(isObject) : [];
      const selected = filled ?? (isObject(el.initial_option) ? textOf(el.initial_option.text, ctx) : undefined);
      return options
        .map((o) => `${textOf(o.text, ctx) === selected ? '(•)' : '( )'} ${textOf(o.text, ctx)}`)
        .join('  ');
    }
    case 'plain_text_input': {
      const value = filled ?? (typeof el.initial_value === 'string' ? el.initial_value : undefined);
      if (value !== undefined && value !== '') return `[${value}]`;
      const placeholder = textOf(el.placeholder, ctx);
      return placeholder ? `[ ${placeholder} ]` : '[ ]';
    }
    case 'datepicker':
    case 'timepicker':
      return `[${String(el.initial_date ?? el.initial_time ?? textOf(el.placeholder, ctx))}]`;
    case 'image':
      return `[image: ${String(el.alt_text ?? '')}]`;
    case 'overflow':
      return '[⋯]';
    default:
      return `[${String(el.type)}]`;
  }
}

/** Blocks as lines of plain text. `filled` shows what the person entered in a modal's inputs. */
export function renderBlocks(blocks: readonly unknown[], ctx: RenderContext, filled?: FilledValues): string[] {
  const lines: string[] = [];
  for (const b of blocks) {
    if (!isObject(b)) continue;
    switch (b.type) {
      case 'header':
        lines.push(`▌${textOf(b.text, ctx)}`);
        break;
      case 'section': {
        const main = textOf(b.text, ctx);
        const accessory = b.accessory ? `  ${elementText(b.accessory, ctx)}` : '';
        if (main || accessory) lines.push(...`${main}${accessory}`.split('\n'));
        if (Array.isArray(b.fields)) lines.push(...b.fields.map((f) => fieldLine(textOf(f, ctx))));
        break;
      }
      case 'context': {
        const parts = Array.isArray(b.elements)
          ? b.elements.map((e) => (isObject(e) && e.type === 'image' ? '' : textOf(e, ctx))).filter(Boolean)
          : [];
        if (parts.length > 0) lines.push(...parts.join(' · ').split('\n'));
        break;
      }
      case 'actions':
        if (Array.isArray(b.elements)) lines.push(b.elements.map((e) => elementText(e, ctx)).join(' '));
        break;
      case 'input': {
        const label = textOf(b.label, ctx);
        const value = elementText(b.element, ctx, typeof b.block_id === 'string' ? filled?.get(b.block_id) : undefined);
        lines.push(`${label}${b.optional ? ' (optional)' : ''}: ${value}`);
        if (b.hint) lines.push(`  ${textOf(b.hint, ctx)}`);
        break;
      }
      case 'divider':
        lines.push('───');
        break;
      case 'image':
        lines.push(`[image: ${String(b.alt_text ?? '')}]`);
        break;
      case 'rich_text':
        lines.push('[rich text]');
        break;
      default:
        lines.push(`[${String(b.type)} block]`);
    }
  }
  return lines;
}

/** "*Requested by*\n@Tara today 14:03" -> "Requested by: @Tara today 14:03". */
function fieldLine(field: string): string {
  const [label = '', value] = splitOnce(field, '\n');
  return value === undefined ? label : `${label}: ${value.replace(/\n/g, ' · ')}`;
}

/** A message (blocks when present, else its text) as lines. `hide` drops blocks by block_id (the repeated sandbox banner). */
export function renderMessage(args: Json, ctx: RenderContext, hide: ReadonlySet<string> = new Set()): string[] {
  const blocks = Array.isArray(args.blocks)
    ? args.blocks.filter((b) => !(isObject(b) && typeof b.block_id === 'string' && hide.has(b.block_id)))
    : [];
  if (blocks.length > 0) return renderBlocks(blocks, ctx);
  return typeof args.text === 'string' ? mrkdwnToText(args.text, ctx).split('\n') : [];
}

/** A modal as lines: its blocks, then its buttons (`[Cancel] [Ask for approval]`). */
export function renderView(
  view: Json,
  ctx: RenderContext,
  filled?: FilledValues,
  hide: ReadonlySet<string> = new Set(),
): string[] {
  const blocks = Array.isArray(view.blocks)
    ? view.blocks.filter((b) => !(isObject(b) && typeof b.block_id === 'string' && hide.has(b.block_id)))
    : [];
  const lines = renderBlocks(blocks, ctx, filled);
  const buttons = [
    view.close ? `[${textOf(view.close, ctx)}]` : '',
    view.submit ? `[${textOf(view.submit, ctx)}]` : '',
  ].filter(Boolean);
  if (buttons.length > 0) lines.push(`${' '.repeat(20)}${buttons.join(' ')}`);
  return lines;
}

export function viewTitle(view: Json, ctx: RenderContext): string {
  return textOf(view.title, ctx);
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
