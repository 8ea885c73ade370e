/**
 * Finding what Slack would turn into a ping, a mention or a link in a payload our builders made:
 * every mrkdwn text object, and a message's top-level `text` (its notification fallback, which
 * Slack also parses). plain_text objects, ids, values and metadata are not parsed by Slack.
 */

/** Keys whose strings Slack never renders as mrkdwn. */
const NOT_RENDERED = new Set([
  'private_metadata',
  'value',
  'action_id',
  'block_id',
  'callback_id',
  'url',
  'initial_value',
  'external_id',
  'image_url',
  'alt_text',
]);

/** Every string of `payload` that Slack renders as mrkdwn. */
export function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, isTop: boolean): void => {
    if (Array.isArray(value)) return value.forEach((v) => walk(v, false));
    if (value === null || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if (obj.type === 'plain_text') return;
    if (obj.type === 'mrkdwn' && typeof obj.text === 'string') out.push(obj.text);
    // A message's (or an ack's) top-level text is its fallback: parsed like mrkdwn.
    if (isTop && typeof obj.text === 'string') out.push(obj.text);
    for (const [k, v] of Object.entries(obj)) if (!NOT_RENDERED.has(k) && typeof v === 'object') walk(v, false);
  };
  walk(payload, true);
  return out;
}

/** `<!channel>`, `<!here>`, `<@U…>`, `<#C…>`, `<!subteam^…>`, `<http…|…>`, `<mailto:…>`: Slack's control sequences. */
const CONTROL = /<(?:[!@#]|[a-z][a-z0-9+.-]*:)[^<>]*>?/gi;
/** Dates the builders format with Slack's own date token: no user text inside. */
const SLACK_DATE = /^<!date\^\d+\^[^|<>]*\|[^<>]*>$/;

export interface ScanAllowance {
  /** User ids the builders may mention (the desk's people). */
  userIds?: Iterable<string>;
  /** URLs the builders may link (the exchange's explorer links). */
  urls?: Iterable<string>;
}

/** The control sequences in the rendered texts of `payload` that the builders did not mean to make. */
export function unsafeSequences(payload: unknown, allow: ScanAllowance = {}): string[] {
  const users = new Set([...(allow.userIds ?? [])].map((u) => `<@${u}>`));
  const urls = [...(allow.urls ?? [])];
  const bad: string[] = [];
  for (const text of mrkdwnTexts(payload)) {
    for (const [token] of text.matchAll(CONTROL)) {
      if (users.has(token) || SLACK_DATE.test(token)) continue;
      if (urls.some((u) => token.startsWith(`<${u.replace(/&/g, '&amp;')}|`))) continue;
      bad.push(token);
    }
  }
  return bad;
}
