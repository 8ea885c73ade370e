// Emoji the bot writes (emoji.test.ts checks every `:name:` in src/bot/slack is here) and a few common
// ones; an unknown name stays as typed, as Slack shows it.
export const EMOJI: Readonly<Record<string, string>> = {
  warning: '\u26a0\ufe0f',
  white_check_mark: '\u2705',
  heavy_check_mark: '\u2714\ufe0f',
  mag: '\ud83d\udd0d',
  information_source: '\u2139\ufe0f',
  hourglass_flowing_sand: '\u23f3',
  hourglass: '\u231b',
  test_tube: '\ud83e\uddea',
  repeat: '\ud83d\udd01',
  heavy_multiplication_x: '\u2716\ufe0f',
  x: '\u274c',
  raising_hand: '\ud83d\ude4b',
  no_entry: '\u26d4',
  no_entry_sign: '\ud83d\udeab',
  arrows_counterclockwise: '\ud83d\udd04',
  rotating_light: '\ud83d\udea8',
  outbox_tray: '\ud83d\udce4',
  inbox_tray: '\ud83d\udce5',
  large_blue_circle: '\ud83d\udd35',
  large_green_circle: '\ud83d\udfe2',
  red_circle: '\ud83d\udd34',
  grey_question: '\u2754',
  question: '\u2753',
  double_vertical_bar: '\u23f8\ufe0f',
  bank: '\ud83c\udfe6',
  moneybag: '\ud83d\udcb0',
  lock: '\ud83d\udd12',
  eyes: '\ud83d\udc40',
  tada: '\ud83c\udf89',
  '+1': '\ud83d\udc4d',
  thumbsup: '\ud83d\udc4d',
  '-1': '\ud83d\udc4e',
  clock3: '\ud83d\udd52',
  chart_with_upwards_trend: '\ud83d\udcc8',
  chart_with_downwards_trend: '\ud83d\udcc9',
};

export function emojiFor(name: string): string | undefined {
  return Object.hasOwn(EMOJI, name) ? EMOJI[name] : undefined;
}

/** Every `:name:` Slack knows replaced by its character (plain_text with `emoji: true`). */
export function replaceShortcodes(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => emojiFor(name) ?? whole);
}
