// What `/desk delegate …` asks for, read from the command's words (pure): show, end, or set with
// a person and an end date. The person comes as Slack escapes a mention (`<@U123|ben>`); a bare
// `@ben` is only a name, which the bot cannot turn into a person without asking Slack.

export type DelegateInput =
  | { ok: true; action: 'show' }
  | { ok: true; action: 'end' }
  | { ok: true; action: 'set'; delegate: string; until: number | undefined }
  | { ok: false; message: string };

export const DELEGATE_USAGE =
  'Usage: `/desk delegate @name until 2026-12-24` names who approves in your place until that date (00:00 UTC, at most 30 days away); `/desk delegate` shows it, `/desk delegate end` ends it.';

const MENTION = /^<@([UW][A-Z0-9]{2,30})(?:\|[^>]*)?>$/;
const USER_ID = /^[UW][A-Z0-9]{2,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `words`: what follows `delegate` in the command. */
export function readDelegateInput(words: readonly string[]): DelegateInput {
  const [who, ...rest] = words;
  if (who === undefined) return { ok: true, action: 'show' };
  if (who.toLowerCase() === 'end' && rest.length === 0) return { ok: true, action: 'end' };
  const delegate = MENTION.exec(who)?.[1] ?? (USER_ID.test(who) ? who : undefined);
  if (delegate === undefined) {
    const name = who.replace(/[`<>]/g, '').slice(0, 40);
    return {
      ok: false,
      message: who.startsWith('@')
        ? `I could not tell who \`${name}\` is: pick the person from the list Slack shows as you type @, so the command carries them, not just their name. ${DELEGATE_USAGE}`
        : `\`${name}\` is not a person. ${DELEGATE_USAGE}`,
    };
  }
  const dateWords = rest[0]?.toLowerCase() === 'until' ? rest.slice(1) : rest;
  if (dateWords.length === 0) return { ok: true, action: 'set', delegate, until: undefined };
  if (dateWords.length > 1) return { ok: false, message: DELEGATE_USAGE };
  const until = readDate(dateWords[0]!);
  if (until === undefined)
    return {
      ok: false,
      message: `\`${dateWords[0]!.replace(/[`<>]/g, '').slice(0, 40)}\` is not a date: write it as YYYY-MM-DD, e.g. \`2026-12-24\`.`,
    };
  return { ok: true, action: 'set', delegate, until };
}

/** 00:00 UTC of a real calendar date, or undefined ("2026-02-30" is not one). */
export function readDate(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = Date.UTC(y, mo - 1, d);
  const back = new Date(at);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? at : undefined;
}
