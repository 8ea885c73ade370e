// The bot's environment variables, one zod schema each: the deployment interface (documented in
// .env.example); load-config.ts adds rules spanning several. "FOO=" counts as unset.
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_RATE_LIMIT_PER_SECOND } from '../exchange/assumptions.js';
import { LOG_LEVELS } from './config.js';
import { databasePasswords, MIN_DATABASE_PASSWORD_LENGTH, parseDatabaseUrl } from './database-url.js';
import { safeForSecrets } from '../domain/secret-edges.js';
import { isDecimal, isZero } from '../domain/money.js';
import { parseStepUpKey } from '../domain/step-up/sealed-secret.js';

/** Slack user ids: U… for most users, W… on Enterprise Grid. */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{6,}$/;
/** Slack channel ids: C… public, G… older private channels. */
export const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{6,}$/;

export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';
export const DEFAULT_PORT = 3000;
/** The operations endpoints answer this machine only unless HEALTH_HOST says otherwise. */
export const DEFAULT_HEALTH_HOST = '127.0.0.1';
export const DEFAULT_REQUIRED_APPROVALS = 2;
export const MIN_REQUIRED_APPROVALS = 2;
export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_POLL_INTERVAL_MS = 10_000;
/** A real exchange is never polled faster (a third-party client polls no faster than 5 s). */
export const MIN_POLL_INTERVAL_MS_REMOTE = 1_000;
/** The embedded sandbox is local: the demo may poll fast. */
export const MIN_POLL_INTERVAL_MS_SANDBOX = 50;
export const DEFAULT_WITHDRAWAL_EXPIRY_MINUTES = 1440;
export const DEFAULT_TRADE_EXPIRY_MINUTES = 15;
export const DEFAULT_QUOTE_SAFETY_MARGIN_MS = 500;
export const DEFAULT_UNKNOWN_OUTCOME_SETTLE_MINUTES = 10;

/** Variables whose values must never be echoed, even partly. */
export const SECRET_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'EXCHANGE_PRIVATE_KEY',
  'DATABASE_URL',
  'HTTPS_PROXY',
  'STEP_UP_ENCRYPTION_KEY',
] as const;

/** `<NAME>_FILE` of a secret variable: the path of a file holding its value (secret-files.ts reads it). */
const secretFile = () => optional(z.string().trim());

const unsetIfEmpty = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const required = <T>(schema: z.ZodType<T, string>, what: string) =>
  z.preprocess(unsetIfEmpty, z.string({ error: `is required: ${what}` }).pipe(schema));

const optional = <T>(schema: z.ZodType<T, string>) => z.preprocess(unsetIfEmpty, z.string().pipe(schema).optional());

function wholeNumber(min: number, max: number, unit = '', belowMin?: string): z.ZodType<number, string> {
  const range = `must be a whole number from ${min} to ${max}${unit}`;
  return z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, range)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, belowMin ?? range)
        .max(max, range),
    );
}

function httpUrl(what: string): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine((v) => {
      try {
        return safeForSecrets(new URL(v));
      } catch {
        return false;
      }
    }, `must be an https:// URL of ${what} (plain http only for localhost)`);
}

/** Comma separated Slack user ids; the message names the entries that are not ids. */
const userIdList = z
  .string()
  .transform((v) => [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ])
  .superRefine((ids, ctx) => {
    const bad = ids.filter((id) => !SLACK_USER_ID.test(id));
    if (bad.length > 0) {
      const shown = bad
        .slice(0, 5)
        .map((b) => JSON.stringify(b.slice(0, 30)))
        .join(', ');
      ctx.addIssue({
        code: 'custom',
        message: `${shown} ${bad.length === 1 ? 'is not a Slack user id' : 'are not Slack user ids'} (like U0123ABCD or W0123ABCD; from a profile: ⋮ → Copy member ID)`,
      });
    }
  });

const channelId = z
  .string()
  .trim()
  .regex(
    SLACK_CHANNEL_ID,
    'must be a channel id like C0123ABCD (channel details → bottom of the About tab), not a name',
  );

/** Shorter than any token Slack issues (theirs are tens of characters after the prefix). */
const MIN_TOKEN_LENGTH = 14;

/** A Slack token: each way it can be wrong named on its own (a truncated paste is not a wrong prefix). */
const token = (prefix: string, kind: string) =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = !v.startsWith(prefix)
        ? `does not start with ${prefix}: must be ${kind}`
        : /\s/.test(v)
          ? `contains a space: must be ${kind} exactly as Slack shows it`
          : !/^[A-Za-z0-9-]+$/.test(v)
            ? `is malformed: ${kind} holds only letters, digits and "-" (copy it again)`
            : v.length < MIN_TOKEN_LENGTH
              ? `is too short to be ${kind}: Slack's are tens of characters after ${prefix} (copy it again in full)`
              : undefined;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** DATABASE_URL: a PostgreSQL URL whose password (if any) the redactors can hide. Never quoted. */
const databaseUrl = z
  .string()
  .trim()
  .refine(
    (v) => parseDatabaseUrl(v) !== undefined,
    'must be a PostgreSQL URL like postgres://user:password@host:5432/database (the value is not shown here: it may hold a password)',
  )
  .refine(
    (v) => databasePasswords(v).every((p) => p.length >= MIN_DATABASE_PASSWORD_LENGTH),
    `has a password shorter than ${MIN_DATABASE_PASSWORD_LENGTH} characters: the logs could not hide one that short without hiding ordinary words; use a longer one`,
  );

const yesNo = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false'], { error: 'must be true or false' }))
  .transform((v) => v === 'true');

export const envShape = {
  SLACK_BOT_TOKEN: required(
    token('xoxb-', 'the bot token'),
    'the bot token (xoxb-…) from OAuth & Permissions, or SLACK_BOT_TOKEN_FILE',
  ),
  SLACK_BOT_TOKEN_FILE: secretFile(),
  SLACK_SIGNING_SECRET: optional(
    z
      .string()
      .trim()
      .refine(
        (v) => v.length >= 16 && !/\s/.test(v),
        'must be the signing secret from Basic Information (16 or more characters, no spaces)',
      ),
  ),
  SLACK_SIGNING_SECRET_FILE: secretFile(),
  SLACK_APP_TOKEN: optional(token('xapp-', 'an app-level token with connections:write')),
  SLACK_APP_TOKEN_FILE: secretFile(),
  SLACK_API_URL: optional(httpUrl('the Slack Web API')).transform((v) => withSlash(v ?? DEFAULT_SLACK_API_URL)),
  // Only the bot's calls to Slack go through it (Web API and Socket Mode); the value may hold a proxy password, so it is never quoted.
  HTTPS_PROXY: optional(
    z
      .string()
      .trim()
      .refine((v) => {
        try {
          return ['http:', 'https:'].includes(new URL(v).protocol);
        } catch {
          return false;
        }
      }, 'must be the proxy as a URL, like http://proxy.internal:3128 (the value is not shown here: it may hold a password)'),
  ),
  NO_PROXY: optional(z.string().trim()),
  PORT: optional(wholeNumber(0, 65_535)).transform((v) => v ?? DEFAULT_PORT),
  HEALTH_PORT: optional(wholeNumber(0, 65_535)),
  HEALTH_HOST: optional(
    z
      .string()
      .trim()
      .refine(
        (v) => isIP(v) !== 0 || v === 'localhost',
        'must be an IP address to listen on, like 127.0.0.1 (this machine only), 0.0.0.0 or :: (every interface)',
      ),
  ).transform((v) => v ?? DEFAULT_HEALTH_HOST),
  APPROVAL_CHANNEL_ID: required(channelId, 'the channel where requests are approved (C…)'),
  COMPLIANCE_CHANNEL_ID: optional(channelId),
  // Required unless POLICY_FILE is set (load-config.ts), which then is the whole policy.
  REQUESTER_USER_IDS: optional(userIdList),
  APPROVER_USER_IDS: optional(userIdList),
  POLICY_FILE: optional(z.string().trim().min(1)),
  COMPLIANCE_USER_IDS: optional(userIdList).transform((v) => v ?? []),
  ADMIN_USER_IDS: optional(userIdList).transform((v) => v ?? []),
  STEP_UP_AT_LEAST: optional(
    z
      .string()
      .trim()
      .refine((v) => isDecimal(v) && !isZero(v), 'must be an amount in US dollars above 0, like 100000 (no commas)'),
  ),
  // Never quoted: parseStepUpKey's sentence says what is wrong without the value.
  STEP_UP_ENCRYPTION_KEY: optional(
    z.string().transform((v, ctx) => {
      const parsed = parseStepUpKey(v);
      if (parsed.ok) return parsed.key;
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }),
  ),
  STEP_UP_ENCRYPTION_KEY_FILE: secretFile(),
  REQUIRED_APPROVALS: optional(
    wholeNumber(
      MIN_REQUIRED_APPROVALS,
      10,
      '',
      `must be at least ${MIN_REQUIRED_APPROVALS}: a request always needs two different approvers, neither of them the requester`,
    ),
  ).transform((v) => v ?? DEFAULT_REQUIRED_APPROVALS),
  EXCHANGE_BASE_URL: optional(httpUrl('the exchange')),
  EXCHANGE_API_KEY: optional(
    z
      .string()
      .trim()
      .regex(
        /^(?:[0-9a-fA-F]{66}|[0-9a-fA-F]{130})$/,
        'must be the public key in hex (66 digits compressed or 130 uncompressed)',
      ),
  ),
  // Checked by parsePrivateKey in load-config.ts, which never quotes the key.
  EXCHANGE_PRIVATE_KEY: optional(z.string()),
  EXCHANGE_PRIVATE_KEY_FILE: secretFile(),
  DATA_DIR: optional(z.string().trim()).transform((v) => v ?? DEFAULT_DATA_DIR),
  DATABASE_URL: optional(databaseUrl),
  DATABASE_URL_FILE: secretFile(),
  SINGLE_REPLICA: optional(yesNo).transform((v) => v ?? false),
  // The lower bound depends on the exchange kind: load-config.ts checks it.
  POLL_INTERVAL_MS: optional(wholeNumber(1, 3_600_000, ' (milliseconds)')).transform(
    (v) => v ?? DEFAULT_POLL_INTERVAL_MS,
  ),
  LOG_LEVEL: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  ).transform((v) => v ?? 'info'),
  WITHDRAWAL_EXPIRY_MINUTES: optional(wholeNumber(1, 43_200, ' (minutes)')).transform(
    (v) => v ?? DEFAULT_WITHDRAWAL_EXPIRY_MINUTES,
  ),
  TRADE_EXPIRY_MINUTES: optional(wholeNumber(1, 1_440, ' (minutes)')).transform(
    (v) => v ?? DEFAULT_TRADE_EXPIRY_MINUTES,
  ),
  QUOTE_SAFETY_MARGIN_MS: optional(wholeNumber(0, 60_000, ' (milliseconds)')).transform(
    (v) => v ?? DEFAULT_QUOTE_SAFETY_MARGIN_MS,
  ),
  // At least 1 minute: far longer than the client's 10 s timeout, so a slow exchange's late commit is seen.
  UNKNOWN_OUTCOME_SETTLE_MINUTES: optional(wholeNumber(1, 1_440, ' (minutes)')).transform(
    (v) => v ?? DEFAULT_UNKNOWN_OUTCOME_SETTLE_MINUTES,
  ),
  EXCHANGE_RATE_LIMIT_PER_SECOND: optional(
    z
      .string()
      .trim()
      .regex(/^\d{1,4}(\.\d{1,3})?$/, 'must be a positive number of requests per second, e.g. 5 or 0.5')
      .transform(Number)
      .pipe(z.number().gt(0, 'must be more than 0').max(1000, 'must be at most 1000')),
  ).transform((v) => v ?? DEFAULT_RATE_LIMIT_PER_SECOND),
};

export type EnvVariable = keyof typeof envShape;
export type ParsedEnv = { [K in EnvVariable]: z.output<(typeof envShape)[K]> };

export const envSchema = z.object(envShape);

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
