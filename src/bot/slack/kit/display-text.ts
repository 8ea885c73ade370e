/**
 * User and exchange text as a person may safely read it: the one definition used wherever such
 * text reaches Slack (escapeMrkdwn and cutPlain call `visibleText`). Stored values stay raw; this
 * runs only when drawing.
 */

/**
 * Bidi controls (U+202E turns "pay ‮0001‬ BTC" into "pay 1000 BTC" on screen) and characters that
 * draw nothing (zero-width space, joiners, word joiner, BOM, Mongolian vowel separator, soft hyphen).
 */
const INVISIBLE = /[\p{Bidi_Control}\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD]/gu;

/** Line breaks of every kind: CR, LF, vertical tab, form feed, NEL, line and paragraph separators. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/** The text without bidi controls and zero-width characters; line breaks become "\n". */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, '').replace(LINE_BREAKS, '\n');
}

/** One line: visibleText with every run of line breaks and spaces around them as one space. */
export function oneLine(text: string): string {
  return visibleText(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * Scripts a label may combine without a warning, as UTS #39's "Highly Restrictive" level allows
 * (the level Chromium applies to IDN domain names): one script alone, or Latin with the scripts
 * written together in Chinese, Japanese or Korean.
 */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Hangul'],
];

/** Scripts told apart by name; a letter of any other script counts as "another script". */
const SCRIPTS: readonly [string, RegExp][] = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Bopomofo',
  'Arabic',
  'Hebrew',
  'Thai',
  'Devanagari',
].map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')]);

/** Common (digits, punctuation, spaces) and Inherited (combining marks) belong to every script. */
const ANY_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** The scripts a text's letters come from, Common and Inherited left out. */
export function scriptsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const ch of visibleText(text)) {
    if (ANY_SCRIPT.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'another script');
  }
  return found;
}

/**
 * Whether a label mixes scripts as a look-alike would ("Cоld wallet" with a Cyrillic "о"): more
 * than one script, and not one of the combinations UTS #39 "Highly Restrictive" allows.
 */
export function mixesScripts(text: string): boolean {
  const scripts = [...scriptsOf(text)];
  if (scripts.length <= 1) return false;
  return !ALLOWED_MIXES.some((mix) => scripts.every((s) => mix.includes(s)));
}

/**
 * A warning for a label that mixes scripts, naming them ("mixes Latin and Cyrillic letters"), or
 * undefined for an ordinary label.
 */
export function scriptMixWarning(text: string): string | undefined {
  if (!mixesScripts(text)) return undefined;
  const names = [...scriptsOf(text)];
  return `mixes ${names.slice(0, -1).join(', ')} and ${names.at(-1)} letters: look-alike characters?`;
}

/**
 * An address-book label or bank account name as shown to a person: one line, and marked when it
 * mixes scripts: "Cоld wallet (⚠ mixes Latin and Cyrillic letters: look-alike characters?)".
 * Plain text; mrkdwn callers escape it as any other text.
 */
export function shownLabel(label: string): string {
  const { line, warning } = labelParts(label);
  return warning ? `${line} (⚠ ${warning})` : line;
}

/** A label's one line and its mixed-script warning apart, for places short of room (select options). */
export function labelParts(label: string): { line: string; warning?: string } {
  const line = oneLine(label);
  const warning = scriptMixWarning(line);
  return warning ? { line, warning } : { line };
}
