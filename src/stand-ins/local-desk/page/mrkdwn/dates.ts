// Slack's `<!date^epoch^format|fallback>` in the reader's zone, as Slack draws it (en-US, 12-hour). Pure.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS: Record<string, string> = {
  Sun: 'Sunday',
  Mon: 'Monday',
  Tue: 'Tuesday',
  Wed: 'Wednesday',
  Thu: 'Thursday',
  Fri: 'Friday',
  Sat: 'Saturday',
};

interface Wall {
  year: number;
  month: number;
  day: number;
  weekday: string;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (a person's tz comes from the server; a bad one falls back to UTC). */
export function validTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function wallClock(ms: number, timeZone: string): Wall {
  const zone = validTimeZone(timeZone) ? timeZone : 'UTC';
  const parts: Record<string, string> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? '',
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const two = (n: number): string => String(n).padStart(2, '0');

function ordinal(n: number): string {
  const rest = n % 100;
  if (rest >= 11 && rest <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** Days between two calendar dates (their local midnights), e.g. -1 for yesterday. */
function dayDiff(a: Wall, b: Wall): number {
  return Math.round((Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day)) / 86_400_000);
}

function clock(w: Wall, secs: boolean): string {
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${h12}:${two(w.minute)}${secs ? `:${two(w.second)}` : ''} ${w.hour < 12 ? 'AM' : 'PM'}`;
}

function ago(ms: number, now: number): string {
  const s = Math.round((now - ms) / 1000);
  const abs = Math.abs(s);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.floor(abs / 60), 'minute']
        : abs < 86_400
          ? [Math.floor(abs / 3600), 'hour']
          : [Math.floor(abs / 86_400), 'day'];
  const span = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return s >= 0 ? `${span} ago` : `in ${span}`;
}

/**
 * A "pretty" token at the very start is capitalised ("Today at …"); unknown tokens stay as written.
 * @example formatSlackDate(1714572180, '{date_short} {time}', 'Asia/Singapore', now) // 'May 1, 2024 10:03 PM'
 */
export function formatSlackDate(epochSeconds: number, format: string, timeZone: string, now: number): string {
  const ms = epochSeconds * 1000;
  const w = wallClock(ms, timeZone);
  const diff = dayDiff(w, wallClock(now, timeZone));
  const month = MONTHS[w.month - 1] ?? '';
  const date = `${month} ${ordinal(w.day)}, ${w.year}`;
  const dateShort = `${month.slice(0, 3)} ${w.day}, ${w.year}`;
  const dateLong = `${w.weekday}, ${date}`;
  const relative = diff === 0 ? 'today' : diff === -1 ? 'yesterday' : diff === 1 ? 'tomorrow' : undefined;
  const tokens: Record<string, (atStart: boolean) => string> = {
    date_num: () => `${w.year}-${two(w.month)}-${two(w.day)}`,
    date_slash: () => `${two(w.day)}/${two(w.month)}/${w.year}`,
    date: () => date,
    date_short: () => dateShort,
    date_long: () => dateLong,
    date_long_full: () => `${month} ${w.day}, ${w.year}`,
    date_pretty: (start) => pretty(relative, start) ?? date,
    date_short_pretty: (start) => pretty(relative, start) ?? dateShort,
    date_long_pretty: (start) => pretty(relative, start) ?? dateLong,
    day_divider_pretty: (start) =>
      pretty(relative, start) ??
      (w.year === wallClock(now, timeZone).year ? `${w.weekday}, ${month} ${ordinal(w.day)}` : dateLong),
    time: () => clock(w, false),
    time_secs: () => clock(w, true),
    ago: () => ago(ms, now),
  };
  return format.replace(
    /\{([a-z_]+)\}/g,
    (whole, name: string, offset: number) => tokens[name]?.(offset === 0) ?? whole,
  );
}

/** "GMT+8", "EDT": a time that matters names its zone, so people in different zones agree on one expiry. */
export function zoneName(ms: number, timeZone: string): string {
  const zone = validTimeZone(timeZone) ? timeZone : 'UTC';
  return (
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
      .formatToParts(new Date(ms))
      .find((p) => p.type === 'timeZoneName')?.value ?? zone
  );
}

/** With the zone after a clock time ("8:18 PM GMT+8"), where Slack leaves the reader to know their own. */
export function formatSlackDateWithZone(epochSeconds: number, format: string, timeZone: string, now: number): string {
  const zone = zoneName(epochSeconds * 1000, timeZone);
  return formatSlackDate(
    epochSeconds,
    format.replace(/\{time(_secs)?\}/g, (token) => `${token} ${zone}`),
    timeZone,
    now,
  );
}

function pretty(word: string | undefined, atStart: boolean): string | undefined {
  if (!word) return undefined;
  return atStart ? word[0]!.toUpperCase() + word.slice(1) : word;
}
