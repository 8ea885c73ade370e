// The approval policy file (POLICY_FILE, YAML): read, checked against its schema (unknown keys
// refused), turned into the policy's input, and then checked as a policy, with every problem listed
// at once. `npm run policy -- check` and the start-up read it the same way.
import { createHash } from 'node:crypto';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { isDecimal } from '../domain/money.js';
import { createPolicy, PolicyConfigError, type Policy, type PolicyInput } from '../domain/policy.js';
import { REQUEST_KINDS } from '../domain/request.js';
import type { PolicyFileInput } from './config.js';
import { SLACK_USER_ID } from './env-schema.js';

export type PolicyFileResult = { ok: true; input: PolicyFileInput; hash: string } | { ok: false; problems: string[] };

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const userId = z.string().regex(SLACK_USER_ID, 'expected a Slack user id like U0123ABCD');
const amount = z
  .string({ error: 'expected a decimal in quotes, like "100000" (a bare YAML number can lose digits)' })
  .refine(isDecimal, 'expected a plain decimal like "100000" or "0.5"');
const duration = z
  .string()
  .regex(/^[1-9]\d{0,6}[smhd]$/, 'expected a duration like 15m, 24h or 7d')
  .transform((text) => Number(text.slice(0, -1)) * UNITS[text.slice(-1)]!);
const kind = z.enum(REQUEST_KINDS);
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);
const requirement = z.strictObject({ group: z.string().min(1), count: z.number().int().min(1) });
const requireList = z.array(requirement).min(1, 'name at least one group');

const fileSchema = z.strictObject({
  groups: z.record(z.string().min(1), z.array(userId).min(1, 'a group needs someone in it')),
  requesters: z.array(userId).min(1, 'name at least one requester'),
  rules: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        match: z
          .strictObject({
            kind: oneOrMany(kind).optional(),
            asset: oneOrMany(z.string().min(1)).optional(),
            value_at_least: z.strictObject({ amount, currency: z.string().min(1) }).optional(),
          })
          .optional(),
        require: requireList,
        expires_after: duration.optional(),
        // Issue 23: when approvers who have not acted are first reminded, and how often after (at most three).
        remind_after: duration.optional(),
        remind_every: duration.optional(),
        // Issue 24: approving a request under this rule asks each approver for a one-time code.
        step_up: z.boolean().optional(),
      }),
    )
    .min(1, 'at least one rule: a request no rule matches is refused'),
  limits: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        match: z.strictObject({ kind: oneOrMany(kind).optional(), asset: z.string().min(1) }),
        window: duration,
        max: amount,
        over: z.union([z.literal('refuse'), z.strictObject({ require: requireList })]).default('refuse'),
      }),
    )
    .optional(),
  destinations: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
  // Issue 23: members of these groups may not name a delegate (`/desk delegate` refused, none counts for them).
  delegation: z
    .strictObject({ forbidden_for: z.array(z.string().min(1)).min(1, 'name at least one group') })
    .optional(),
});

const list = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** The file's text as the policy's input, or every problem with where it is. */
export function parsePolicyText(text: string, path: string): PolicyFileResult {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) return { ok: false, problems: doc.errors.map((e) => `${path}: ${e.message}`) };
  const parsed = fileSchema.safeParse(doc.toJS());
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${path}: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`),
    };
  const f = parsed.data;
  const hash = createHash('sha256').update(text).digest('hex');
  const input: PolicyFileInput = {
    requesters: f.requesters,
    groups: f.groups,
    rules: f.rules.map((r) => ({
      name: r.name,
      match: {
        ...(r.match?.kind ? { kinds: list(r.match.kind)! } : {}),
        ...(r.match?.asset ? { assets: list(r.match.asset)! } : {}),
        ...(r.match?.value_at_least ? { valueAtLeast: r.match.value_at_least } : {}),
      },
      require: r.require,
      ...(r.expires_after !== undefined ? { expiresAfterMs: r.expires_after } : {}),
      ...(r.remind_after !== undefined ? { remindAfterMs: r.remind_after } : {}),
      ...(r.remind_every !== undefined ? { remindEveryMs: r.remind_every } : {}),
      ...(r.step_up ? { stepUp: true } : {}),
    })),
    source: { from: 'file', path, hash },
    ...(f.limits
      ? {
          limits: f.limits.map((l) => ({
            name: l.name,
            match: { asset: l.match.asset, ...(l.match.kind ? { kinds: list(l.match.kind)! } : {}) },
            windowMs: l.window,
            max: l.max,
            over: l.over,
          })),
        }
      : {}),
    ...(f.destinations ? { destinations: f.destinations } : {}),
    ...(f.delegation ? { delegationForbiddenFor: f.delegation.forbidden_for } : {}),
  };
  return { ok: true, input, hash };
}

/** Reads and checks the file as a whole policy (groups, rules, requesters who could never be approved...). */
export function readPolicyFile(
  path: string,
  readFile: (path: string) => string,
  rest: Pick<PolicyInput, 'compliance' | 'expiryMs'> = {},
): PolicyFileResult & { policy?: Policy } {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    return { ok: false, problems: [`${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`] };
  }
  const parsed = parsePolicyText(text, path);
  if (!parsed.ok) return parsed;
  try {
    return { ...parsed, policy: createPolicy({ ...parsed.input, ...rest }) };
  } catch (err) {
    if (!(err instanceof PolicyConfigError)) throw err;
    return { ok: false, problems: err.problems.map((p) => `${path}: ${p}`) };
  }
}
