// The only reader of process.env for the bot: each variable parsed on its own, so one bad value never
// hides another, then the rules spanning several run on what parsed.
import { readFileSync } from 'node:fs';
import { createPolicy, PolicyConfigError } from '../domain/policy.js';
import { readPolicyFile } from './policy-file.js';
import { resolve } from 'node:path';
import { Secret } from '../exchange/secret.js';
import { readSecretFile } from '../exchange/secret-file.js';
import { KeyError, parsePrivateKey, publicKeyHex } from '../exchange/signer.js';
import { fileVariable, readSecretFiles, type SecretVariable } from './secret-files.js';
import type { Config, ExchangeConfig, PolicyFileInput } from './config.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import {
  envShape,
  MIN_POLL_INTERVAL_MS_REMOTE,
  MIN_POLL_INTERVAL_MS_SANDBOX,
  type EnvVariable,
  type ParsedEnv,
} from './env-schema.js';

export interface LoadConfigOptions {
  /** Reads the secret files (`<NAME>_FILE`); injected by tests. */
  readFile?: (path: string) => string;
  /** Base for a relative DATA_DIR and secret file paths. */
  cwd?: string;
  /** Reads POLICY_FILE; injected by tests. */
  readPolicyFile?: (path: string) => string;
}

type Env = Record<string, string | undefined>;

/** Throws ConfigError listing every problem at once. @example const config = loadConfig(); // from process.env */
export function loadConfig(processEnv: Env = process.env, options: LoadConfigOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const readFile = options.readFile ?? readSecretFile;
  const files = readSecretFiles(processEnv, readFile, cwd);
  const env = files.env;
  const problems: ConfigProblem[] = [...files.problems];
  const parsed: Partial<ParsedEnv> = {};
  /** Where a value came from: its file variable when it was read from one. */
  const source = (name: EnvVariable): string =>
    files.fromFile.has(name as SecretVariable) ? fileVariable(name as SecretVariable) : name;

  for (const name of Object.keys(envShape) as EnvVariable[]) {
    const result = envShape[name].safeParse(env[name]);
    if (result.success) {
      (parsed as Record<string, unknown>)[name] = result.data;
    } else {
      for (const issue of result.error.issues) problems.push({ variable: source(name), message: issue.message });
    }
  }
  // A problem with a variable's file is a problem with the variable: no second message about it.
  const has = (name: EnvVariable): boolean =>
    !problems.some((p) => p.variable === name || p.variable === `${name}_FILE`);
  const set = (name: EnvVariable): boolean => parsed[name] !== undefined;
  const problem = (variable: string, message: string) => problems.push({ variable, message });

  const socketMode = set('SLACK_APP_TOKEN');
  // An app token given but refused still says Socket Mode was meant: no signing secret asked for.
  const meantSocketMode = socketMode || !has('SLACK_APP_TOKEN');
  if (!meantSocketMode && has('SLACK_SIGNING_SECRET') && !set('SLACK_SIGNING_SECRET')) {
    problem(
      'SLACK_SIGNING_SECRET',
      'is required in HTTP mode (SLACK_APP_TOKEN unset): Slack signs every request with it',
    );
  }

  if (
    !socketMode &&
    parsed.HEALTH_PORT !== undefined &&
    parsed.HEALTH_PORT !== 0 &&
    parsed.HEALTH_PORT === parsed.PORT
  ) {
    problem(
      'HEALTH_PORT',
      `is PORT (${parsed.PORT}): the operations endpoints are never served on the port Slack reaches; set another port`,
    );
  }

  const policyFile = loadPolicyFile(env, parsed, {
    has,
    problem,
    readFile: options.readPolicyFile ?? readTextFile,
    cwd,
  });
  if (!set('POLICY_FILE')) checkPolicyVariables(parsed, { has, problem });
  if (
    set('COMPLIANCE_CHANNEL_ID') &&
    parsed.COMPLIANCE_USER_IDS !== undefined &&
    parsed.COMPLIANCE_USER_IDS.length === 0 &&
    has('COMPLIANCE_USER_IDS')
  ) {
    problem('COMPLIANCE_USER_IDS', 'is required when COMPLIANCE_CHANNEL_ID is set: nobody could declare a deposit');
  }

  checkStepUp(parsed, policyFile, { has, set, problem });

  const exchange = exchangeConfig(parsed, { has, set, problem, source });
  if (exchange !== undefined && parsed.POLL_INTERVAL_MS !== undefined) {
    const min = exchange.kind === 'remote' ? MIN_POLL_INTERVAL_MS_REMOTE : MIN_POLL_INTERVAL_MS_SANDBOX;
    if (parsed.POLL_INTERVAL_MS < min) {
      problem(
        'POLL_INTERVAL_MS',
        `must be at least ${min} ms ${exchange.kind === 'remote' ? 'against a real exchange' : 'with the sandbox'}`,
      );
    }
  }

  if (set('DATABASE_URL') && exchange?.kind === 'sandbox' && parsed.SINGLE_REPLICA === false) {
    problem(
      'DATABASE_URL',
      'is set, so replicas may share this database, but EXCHANGE_BASE_URL is unset, so each bot would run its own embedded sandbox exchange and one ' +
        'would not see what another sent. Point EXCHANGE_BASE_URL at one shared exchange (for tests: one `npm run sandbox`), ' +
        'or set SINGLE_REPLICA=true if this bot is the only one on the database',
    );
  }

  if (problems.length > 0 || exchange === undefined) throw new ConfigError(inVariableOrder(problems));
  const p = parsed as ParsedEnv;
  return {
    slack: {
      botToken: new Secret(p.SLACK_BOT_TOKEN),
      signingSecret: p.SLACK_SIGNING_SECRET === undefined ? undefined : new Secret(p.SLACK_SIGNING_SECRET),
      appToken: p.SLACK_APP_TOKEN === undefined ? undefined : new Secret(p.SLACK_APP_TOKEN),
      mode: socketMode ? 'socket' : 'http',
      apiUrl: p.SLACK_API_URL,
      port: p.PORT,
      proxy: p.HTTPS_PROXY === undefined ? undefined : { url: new Secret(p.HTTPS_PROXY), noProxy: p.NO_PROXY },
    },
    channels: { approval: p.APPROVAL_CHANNEL_ID, compliance: p.COMPLIANCE_CHANNEL_ID },
    users: policyFile
      ? {
          requesters: [...policyFile.requesters],
          approvers: [...new Set(Object.values(policyFile.groups).flatMap((m) => [...m]))],
          compliance: p.COMPLIANCE_USER_IDS,
        }
      : {
          requesters: p.REQUESTER_USER_IDS ?? [],
          approvers: p.APPROVER_USER_IDS ?? [],
          compliance: p.COMPLIANCE_USER_IDS,
        },
    policyFile,
    admins: p.ADMIN_USER_IDS,
    stepUp: {
      atLeastUsd: p.STEP_UP_AT_LEAST,
      key: p.STEP_UP_ENCRYPTION_KEY === undefined ? undefined : new Secret(p.STEP_UP_ENCRYPTION_KEY),
    },
    approvals: {
      required: p.REQUIRED_APPROVALS,
      withdrawalExpiryMs: p.WITHDRAWAL_EXPIRY_MINUTES * 60_000,
      tradeExpiryMs: p.TRADE_EXPIRY_MINUTES * 60_000,
      quoteSafetyMarginMs: p.QUOTE_SAFETY_MARGIN_MS,
      unknownSettleWindowMs: p.UNKNOWN_OUTCOME_SETTLE_MINUTES * 60_000,
    },
    exchange,
    dataDir: resolve(cwd, p.DATA_DIR),
    database:
      p.DATABASE_URL === undefined ? undefined : { url: new Secret(p.DATABASE_URL), singleReplica: p.SINGLE_REPLICA },
    pollIntervalMs: p.POLL_INTERVAL_MS,
    logLevel: p.LOG_LEVEL,
    healthPort: p.HEALTH_PORT,
    healthHost: p.HEALTH_HOST,
  };
}

interface Checks {
  has(name: EnvVariable): boolean;
  set(name: EnvVariable): boolean;
  problem(variable: string, message: string): void;
  source(name: EnvVariable): string;
}

function exchangeConfig(parsed: Partial<ParsedEnv>, c: Checks): ExchangeConfig | undefined {
  const rateLimitPerSecond = parsed.EXCHANGE_RATE_LIMIT_PER_SECOND;
  const keyVars = ['EXCHANGE_API_KEY', 'EXCHANGE_PRIVATE_KEY'] as const;

  if (!c.set('EXCHANGE_BASE_URL')) {
    if (!c.has('EXCHANGE_BASE_URL')) return undefined;
    // A key without a URL usually means a forgotten URL: refuse rather than run on the sandbox.
    for (const name of keyVars) {
      if (c.set(name))
        c.problem(
          c.source(name),
          'is only used with a real exchange, but EXCHANGE_BASE_URL is unset (the embedded sandbox); set EXCHANGE_BASE_URL or remove it',
        );
    }
    return rateLimitPerSecond === undefined ? undefined : { kind: 'sandbox', rateLimitPerSecond };
  }

  // EXCHANGE_PRIVATE_KEY_FILE was read into EXCHANGE_PRIVATE_KEY (secret-files.ts).
  const key = parsed.EXCHANGE_PRIVATE_KEY;
  let privateKey: Secret<Uint8Array> | undefined;
  if (key === undefined) {
    if (c.has('EXCHANGE_PRIVATE_KEY')) {
      c.problem(
        'EXCHANGE_PRIVATE_KEY',
        'or EXCHANGE_PRIVATE_KEY_FILE is required with EXCHANGE_BASE_URL (hex or PEM secp256k1 key)',
      );
    }
  } else {
    privateKey = parseKey(key, c.source('EXCHANGE_PRIVATE_KEY'), c);
  }

  const apiKey = parsed.EXCHANGE_API_KEY;
  if (privateKey !== undefined && apiKey !== undefined) {
    const own = [publicKeyHex(privateKey, true), publicKeyHex(privateKey, false)];
    if (!own.includes(apiKey.toUpperCase())) {
      c.problem(
        'EXCHANGE_API_KEY',
        'is not the public key of the configured private key (the exchange would refuse every signature)',
      );
    }
  }
  if (privateKey === undefined || rateLimitPerSecond === undefined || parsed.EXCHANGE_BASE_URL === undefined)
    return undefined;
  return {
    kind: 'remote',
    baseUrl: parsed.EXCHANGE_BASE_URL,
    apiKey: apiKey?.toUpperCase(),
    privateKey,
    rateLimitPerSecond,
  };
}

function parseKey(text: string, variable: string, c: Checks): Secret<Uint8Array> | undefined {
  try {
    return parsePrivateKey(text);
  } catch (err) {
    // KeyError messages are written never to quote the key; anything else is replaced.
    c.problem(variable, err instanceof KeyError ? err.message : 'is not a readable private key');
    return undefined;
  }
}

/** Problems in the order the variables are documented, cross-variable ones beside their variable. */
function inVariableOrder(problems: ConfigProblem[]): ConfigProblem[] {
  const order = Object.keys(envShape);
  const rank = (p: ConfigProblem) => {
    const i = order.indexOf(p.variable);
    return i === -1 ? order.length : i;
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map((x) => x.p);
}

const readTextFile = (path: string): string => readFileSync(path, 'utf8');

/** The variables that are the policy when POLICY_FILE is not set. */
const POLICY_VARIABLES = ['APPROVER_USER_IDS', 'REQUESTER_USER_IDS', 'REQUIRED_APPROVALS'] as const;

/** POLICY_FILE read and checked as a whole policy; setting it and the policy's variables is refused, naming both. */
function loadPolicyFile(
  env: Env,
  parsed: Partial<ParsedEnv>,
  c: Pick<Checks, 'has' | 'problem'> & { readFile: (path: string) => string; cwd: string },
): PolicyFileInput | undefined {
  const path = parsed.POLICY_FILE;
  if (path === undefined) return undefined;
  for (const name of POLICY_VARIABLES)
    if ((env[name] ?? '').trim() !== '')
      c.problem(
        name,
        `is set, and so is POLICY_FILE: the policy file is the whole approval policy; remove ${name} or POLICY_FILE`,
      );
  const read = readPolicyFile(resolve(c.cwd, path), c.readFile, {
    compliance: parsed.COMPLIANCE_USER_IDS ?? [],
  });
  if (!read.ok) {
    for (const message of read.problems) c.problem('POLICY_FILE', message);
    return undefined;
  }
  return read.input;
}

/** Without a policy file, today's variables are the policy, checked as they always were. */
function checkPolicyVariables(parsed: Partial<ParsedEnv>, c: Pick<Checks, 'has' | 'problem'>): void {
  const problem = c.problem;
  if (c.has('REQUESTER_USER_IDS') && parsed.REQUESTER_USER_IDS === undefined)
    problem(
      'REQUESTER_USER_IDS',
      'is required: who may ask for withdrawals and trades (comma separated user ids), unless POLICY_FILE is set',
    );
  if (c.has('APPROVER_USER_IDS') && parsed.APPROVER_USER_IDS === undefined)
    problem('APPROVER_USER_IDS', 'is required: who may approve (comma separated user ids), unless POLICY_FILE is set');
  const approvers = parsed.APPROVER_USER_IDS;
  const requiredApprovals = parsed.REQUIRED_APPROVALS;
  if (approvers !== undefined && approvers.length === 0) problem('APPROVER_USER_IDS', 'lists nobody');
  if (parsed.REQUESTER_USER_IDS !== undefined && parsed.REQUESTER_USER_IDS.length === 0)
    problem('REQUESTER_USER_IDS', 'lists nobody');
  if (
    approvers !== undefined &&
    approvers.length > 0 &&
    requiredApprovals !== undefined &&
    approvers.length < requiredApprovals
  ) {
    problem(
      'APPROVER_USER_IDS',
      `lists ${approvers.length} ${approvers.length === 1 ? 'person' : 'people'} but REQUIRED_APPROVALS is ${requiredApprovals}: no request could ever be approved`,
    );
  }
  const requesters = parsed.REQUESTER_USER_IDS;
  if (
    approvers !== undefined &&
    requesters !== undefined &&
    requiredApprovals !== undefined &&
    approvers.length >= requiredApprovals &&
    requesters.length > 0
  ) {
    // The policy's own rule (a requester never counts), reported against the variable to fix.
    try {
      createPolicy({ requesters, approvers, requiredApprovals });
    } catch (err) {
      if (!(err instanceof PolicyConfigError)) throw err;
      for (const message of err.problems) problem('REQUESTER_USER_IDS', message);
    }
  }
}

/** Step-up (issue 24): asked by STEP_UP_AT_LEAST without a policy file, or by a rule's step_up in it; either needs the key. */
function checkStepUp(
  parsed: Partial<ParsedEnv>,
  policyFile: PolicyFileInput | undefined,
  c: Pick<Checks, 'has' | 'set' | 'problem'>,
): void {
  if (c.set('STEP_UP_AT_LEAST') && c.set('POLICY_FILE'))
    c.problem(
      'STEP_UP_AT_LEAST',
      'is set, and so is POLICY_FILE: with a policy file, the rules that ask for a code say `step_up: true`; remove STEP_UP_AT_LEAST or POLICY_FILE',
    );
  const asked = c.set('STEP_UP_AT_LEAST')
    ? 'STEP_UP_AT_LEAST'
    : policyFile?.rules.some((r) => r.stepUp)
      ? 'a rule with step_up in POLICY_FILE'
      : undefined;
  if (asked && c.has('STEP_UP_ENCRYPTION_KEY') && parsed.STEP_UP_ENCRYPTION_KEY === undefined)
    c.problem(
      'STEP_UP_ENCRYPTION_KEY',
      `is required with ${asked}: it seals the approvers' one-time code secrets (generate one with: openssl rand -hex 32)`,
    );
}
