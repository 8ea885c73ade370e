// Operator tool: `npm run policy -- check [FILE]` validates a policy file (POLICY_FILE by default) and
// prints the effective policy; `npm run policy -- explain --kind K --asset A --amount N --requester U [--value V] [FILE]`
// says which rule would decide such a request, what it needs and each limit's room left now, read from
// the desk's store without its lease (records-read-only.ts). No exchange, nothing changed.
// Exit 0 valid, 1 the policy is refused, 2 usage error.
import { readFileSync } from 'node:fs';
import { parseCommandLine, type CliIo } from '../store/cli-args.js';
import { pathToFileURL } from 'node:url';
import { mayRequest, requireText, ruleFor, type Policy } from '../domain/policy.js';
import { describePolicy, limitLine, ruleLine } from '../domain/policy/describe.js';
import { REQUEST_KINDS, type RequestKind, type Snapshot } from '../domain/request.js';
import { isDecimal } from '../domain/money.js';
import { valuationAt, withValuations } from '../domain/valuation.js';
import { checkLimits, limitAmount, longestWindow } from '../domain/policy/limits.js';
import type { RequestRecord } from '../domain/record.js';
import { REQUEST_RECORD_SCHEMA, REQUEST_RECORD_VERSION, REQUEST_STORE_NAME } from '../domain/record-schema.js';
import { readPolicyFile } from '../config/policy-file.js';
import { toolDataDirOf } from '../store/data-layout.js';
import { databaseTarget } from '../store/database-target.js';
import { describeDatabase } from '../store/postgres/database.js';
import { fileRecordsInScope, pgRecordsInScope } from '../store/records-read-only.js';

const USAGE = `usage: npm run policy -- check [FILE]
       npm run policy -- explain --kind KIND --asset ASSET --amount AMOUNT --requester U… [--value "AMOUNT CURRENCY"] [FILE]
FILE defaults to POLICY_FILE. KIND is one of ${REQUEST_KINDS.join(', ')}. --value is the request's value
(the bot prices it with the exchange's spot price at request time); without it, every rule a value could pick is shown.
explain reads the limits' room left from DATABASE_URL (or DATABASE_URL_FILE), else from DATA_DIR's files, changing nothing.
`;

export async function runPolicyCli(
  argv: string[],
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
  readFile = (p: string) => readFileSync(p, 'utf8'),
  now: () => number = Date.now,
): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      kind: { type: 'string' },
      asset: { type: 'string' },
      amount: { type: 'string' },
      requester: { type: 'string' },
      value: { type: 'string' },
    },
    USAGE,
    io,
  );
  if ('exit' in parsed) return parsed.exit;
  const [command, file, ...extra] = parsed.positionals;
  const path = file ?? env.POLICY_FILE;
  if ((command !== 'check' && command !== 'explain') || extra.length > 0 || !path) {
    io.err(path ? USAGE : `no policy file: pass FILE or set POLICY_FILE\n${USAGE}`);
    return 2;
  }
  const read = readPolicyFile(path, readFile);
  if (!read.ok) {
    io.err(`${path} is not a valid policy:\n${read.problems.map((p) => `- ${p}`).join('\n')}\n`);
    return 1;
  }
  const policy = read.policy!;
  if (command === 'check') {
    io.out(`${path} is valid.\n${describePolicy(policy).join('\n')}\n`);
    return 0;
  }
  return explain(policy, parsed.values, io, env, now);
}

async function explain(
  policy: Policy,
  v: { kind?: string; asset?: string; amount?: string; requester?: string; value?: string },
  io: CliIo,
  env: NodeJS.ProcessEnv,
  now: () => number,
): Promise<number> {
  const kind = v.kind as RequestKind | undefined;
  if (
    !kind ||
    !(REQUEST_KINDS as readonly string[]).includes(kind) ||
    !v.asset ||
    !v.amount ||
    !isDecimal(v.amount) ||
    !v.requester
  ) {
    io.err(`explain needs --kind, --asset, --amount (a decimal) and --requester\n${USAGE}`);
    return 2;
  }
  const lines: string[] = [];
  if (!mayRequest(policy, v.requester))
    lines.push(`${v.requester} is not a requester: such a request would be refused.`);
  const snapshot = sample(kind, v.asset.toUpperCase(), v.amount);
  const value = v.value?.trim().split(/\s+/);
  if (value && (value.length !== 2 || !isDecimal(value[0]!))) {
    io.err(`--value must be an amount and a currency, like "120000 USD"\n`);
    return 2;
  }
  const candidates = value
    ? [
        withValuations(snapshot, [
          valuationAt({ amount: '1', currency: v.asset.toUpperCase() }, value[1]!.toUpperCase(), value[0]!, 0),
        ]),
      ]
    : [snapshot];
  const rule = ruleFor(policy, candidates[0]!);
  lines.push(
    rule
      ? `Rule: ${ruleLine(rule)}\nNeeds: ${requireText(rule.require)}, never ${v.requester} (the requester), one person once`
      : 'No rule matches: such a request would be refused.',
  );
  if (!value && policy.rules.some((r) => r.match.valueAtLeast && (r.match.kinds ?? [kind]).includes(kind)))
    lines.push(
      'Without --value, it was taken as large (the bot never takes an unpriced request as small); priced at request time it may fall under a later rule:',
      ...policy.rules.map((r) => `  ${ruleLine(r)}`),
    );
  lines.push(...(await limitLines(policy, snapshot, env, now)));
  const allowed = policy.destinations.get(v.asset.toUpperCase());
  if (allowed && kind === 'crypto_withdrawal') lines.push(`Destinations: only to ${allowed.join(', ')}`);
  io.out(`${lines.join('\n')}\n`);
  return 0;
}

/** Each limit the request counts under, with its room left now when the store can be read. */
async function limitLines(
  policy: Policy,
  snapshot: Snapshot,
  env: NodeJS.ProcessEnv,
  now: () => number,
): Promise<string[]> {
  const counted = policy.limits.filter((l) => limitAmount(l, snapshot) !== undefined);
  if (counted.length === 0) return [];
  const at = now();
  const read = await recordsNow(env, { since: at - longestWindow(policy) });
  const checks = 'records' in read ? checkLimits(policy, snapshot, read.records, at) : [];
  const lines = counted.map((limit) => {
    const line = `Limit: ${limitLine(limit)}; this request counts ${limitAmount(limit, snapshot)} ${limit.match.asset}`;
    const check = checks.find((c) => c.limit === limit);
    if (!check) return line;
    const verdict = !check.over
      ? 'it fits'
      : limit.over === 'refuse'
        ? 'it does not fit: refused now'
        : `it does not fit: it would also need ${requireText(limit.over.require)}`;
    return `${line}; counted now ${check.used} ${limit.match.asset}, room left ${check.room} ${limit.match.asset}: ${verdict}`;
  });
  if (!('records' in read)) return [...lines, `Room left: not read (${read.problem}); /desk policy shows it.`];
  const refusing = checks.filter((c) => c.over && c.limit.over === 'refuse').map((c) => c.limit.name);
  lines.push(
    refusing.length > 0
      ? `Refused now by a limit: ${refusing.join(', ')} (read from ${read.where})`
      : `No limit refuses it now (read from ${read.where})`,
  );
  return lines;
}

/** The requests the limits count, read where the bot keeps them; a problem in words when they cannot be. */
async function recordsNow(
  env: NodeJS.ProcessEnv,
  scope: { since: number },
): Promise<{ records: RequestRecord[]; where: string } | { problem: string }> {
  const source = { name: REQUEST_STORE_NAME, schema: REQUEST_RECORD_SCHEMA, version: REQUEST_RECORD_VERSION };
  const target = databaseTarget({ name: 'DATABASE_URL', value: undefined }, env);
  if (target !== undefined && 'problem' in target) return { problem: target.problem.trim() };
  const where = target ? describeDatabase(target.url) : toolDataDirOf(env);
  try {
    const records = target
      ? await pgRecordsInScope(target.url, source, scope, () => {})
      : await fileRecordsInScope(where, source, scope);
    return records ? { records, where } : { problem: `no requests stored in ${where}` };
  } catch (err) {
    return { problem: `cannot read ${where}: ${(err as Error).message}` };
  }
}

/** A request of this kind, asset and amount, as far as the rules and limits read it. */
function sample(kind: RequestKind, asset: string, amount: string): Snapshot {
  switch (kind) {
    case 'crypto_withdrawal':
      return {
        kind,
        cryptoCurrencyId: 0,
        asset,
        network: '',
        precision: 18,
        amount,
        fee: '0',
        total: amount,
        destination: { id: '', label: '', address: '', addressTag: null },
        note: null,
        purpose: null,
      };
    case 'fiat_withdrawal':
      return {
        kind,
        currency: asset,
        bankAccount: { id: 0, currency: asset, display: '' },
        amount,
        fee: '0',
        total: amount,
        note: null,
      };
    case 'trade':
      return {
        kind,
        symbol: `${asset}-USD`,
        side: 'sell',
        quantity: amount,
        quantityCurrency: asset,
        paymentMethod: 'user_balance',
        limitPrice: '1',
        slippageBps: null,
        quote: { quoteId: '', price: '1', expiresAt: 0 },
        note: null,
      };
    case 'bank_account_removal':
      return { kind, bankAccount: { id: 0, currency: asset, display: '' }, note: null };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runPolicyCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
