/**
 * Every emoji shortcode the bot writes is one the page draws: a new `:name:` in the bot's text
 * fails here rather than showing as a raw shortcode in the local desk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emojiFor, replaceShortcodes } from '../../../../../src/stand-ins/local-desk/page/mrkdwn/emoji.js';

/** Folders whose text reaches Slack. */
const SOURCES = ['src/bot/slack', 'src/bot/engine', 'src/bot/domain'];
/** A shortcode inside a string literal: after a quote, backtick or space, before one. */
const SHORTCODE = /(?<=['`\s]):([a-z0-9_+]+):(?=[\s'`])/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('emoji the bot writes', () => {
  const used = new Set(
    SOURCES.flatMap(tsFiles).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(SHORTCODE)].map((m) => m[1]!)),
  );

  it("finds the bot's shortcodes (the scan itself works)", () => {
    expect(used.has('white_check_mark')).toBe(true);
    expect(used.size).toBeGreaterThan(10);
  });

  it('draws every one of them', () => {
    expect([...used].filter((name) => emojiFor(name) === undefined)).toEqual([]);
  });

  it('replaces known shortcodes in plain text and leaves unknown ones', () => {
    expect(replaceShortcodes(':test_tube: SANDBOX :nope:')).toBe('\ud83e\uddea SANDBOX :nope:');
  });
});
