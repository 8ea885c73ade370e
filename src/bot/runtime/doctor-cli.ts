/**
 * `npm run doctor`: the go-live check (src/bot/ops/doctor/) wired to the configuration the bot would
 * start with: Slack through the bot's own transport (HTTPS_PROXY), the exchange through
 * check-exchange, the store it would open. One line per check with its fix; exit 1 if any failed.
 * It changes nothing: no message is posted, no migration applied, no file left behind.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { webApi } from '@slack/bolt';
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import { checkExchange, CLOCK_SKEW_HINT_MS, readCheckEnv } from '../exchange/check-exchange.js';
import type { FetchLike } from '../exchange/transport.js';
import {
  exchangeChecks,
  runDoctor,
  slackChecks,
  storeCheck,
  type DoctorCheck,
  type ExchangeProbe,
  type StoreProbe,
} from '../ops/doctor/index.js';
import { slackTransport } from '../slack/shell/slack-transport.js';
import { describeDatabase } from '../store/postgres/database.js';
import { pendingMigrations } from '../store/postgres/migrate.js';
import { createPool } from '../store/postgres/pool.js';
import { DIR_MODE, FILE_MODE } from '../store/durable-io.js';
import { wantsPreview } from '../store/data-layout.js';

export interface DoctorDeps {
  out?: (line: string) => void;
  /** The exchange's fetch (tests); Slack goes through the bot's transport. */
  exchangeFetch?: FetchLike;
}

/** Resolves with the exit code. */
export async function doctor(env: NodeJS.ProcessEnv, deps: DoctorDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  if (wantsPreview(env)) {
    out(
      '[FAIL] configuration: nothing is configured (npm start would run the local preview). Fix: set the variables of .env.example for your workspace and exchange, then run the doctor again',
    );
    return 1;
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems)
      out(`[FAIL] configuration ${p.variable}: ${p.message}. Fix: correct it (.env.example documents each variable)`);
    out(
      `${err.problems.length} configuration problem${err.problems.length === 1 ? '' : 's'}: the bot would not start; the other checks need a valid configuration.`,
    );
    return 1;
  }
  const checks: DoctorCheck[] = [
    ...slackChecksOf(config),
    ...exchangeChecksOf(config, env, deps),
    storeCheck(storeProbeOf(config)),
  ];
  return runDoctor(checks, out);
}

function slackChecksOf(config: Config): DoctorCheck[] {
  const quiet = { warn: () => {}, info: () => {} };
  const transport = slackTransport(config.slack, quiet);
  const client = new webApi.WebClient(config.slack.botToken.reveal(), {
    slackApiUrl: config.slack.apiUrl,
    fetch: transport.fetch,
    retryConfig: { retries: 0 },
    timeout: 10_000,
    logger: {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: () => {},
      setLevel: () => {},
      getLevel: () => webApi.LogLevel.ERROR,
      setName: () => {},
    },
  });
  const variables = new Map<string, string[]>();
  const name = (ids: readonly string[], variable: string) =>
    ids.forEach((id) => variables.set(id, [...(variables.get(id) ?? []), variable]));
  name(config.users.requesters, 'REQUESTER_USER_IDS');
  name(config.users.approvers, 'APPROVER_USER_IDS');
  name(config.users.compliance, 'COMPLIANCE_USER_IDS');
  return slackChecks((method, args) => client.apiCall(method, args) as unknown as Promise<Record<string, unknown>>, {
    approvalChannel: config.channels.approval,
    complianceChannel: config.channels.compliance,
    users: [...variables].map(([id, vars]) => ({ id, variable: vars.join(', ') })),
    route: `${config.slack.apiUrl} ${transport.route}`,
  });
}

function exchangeChecksOf(config: Config, env: NodeJS.ProcessEnv, deps: DoctorDeps): DoctorCheck[] {
  if (config.exchange.kind !== 'remote')
    return exchangeChecks({ probe: undefined, maxClockOffsetMs: CLOCK_SKEW_HINT_MS });
  const probe = async (): Promise<ExchangeProbe> => {
    const lines: string[] = [];
    let clockOffsetMs: number | undefined;
    const code = await checkExchange(readCheckEnv(env), {
      out: (l) => void lines.push(l),
      clockOffset: (ms) => (clockOffsetMs = ms),
      ...(deps.exchangeFetch ? { fetch: deps.exchangeFetch } : {}),
    });
    return { code, lines, clockOffsetMs };
  };
  return exchangeChecks({ probe, maxClockOffsetMs: CLOCK_SKEW_HINT_MS });
}

function storeProbeOf(config: Config): StoreProbe {
  const database = config.database;
  if (database) {
    const url = database.url.reveal();
    return {
      kind: 'database',
      where: describeDatabase(url),
      probe: async () => {
        const pool = createPool({ url, warn: () => {}, max: 1 });
        try {
          return { pending: await pendingMigrations(pool) };
        } finally {
          await pool.end().catch(() => {});
        }
      },
    };
  }
  const dir = config.dataDir;
  return {
    kind: 'files',
    dir,
    probe: async () => {
      const file = join(dir, `.doctor-${process.pid}`);
      try {
        await mkdir(dir, { recursive: true, mode: DIR_MODE });
        await writeFile(file, 'doctor', { mode: FILE_MODE });
        await rm(file);
        return { writable: true, mode: (await stat(dir)).mode };
      } catch (err) {
        return { writable: false, code: (err as NodeJS.ErrnoException).code ?? 'error' };
      }
    },
  };
}

const USAGE = `usage: npm run doctor   (the go-live check, with the bot's environment: one line per check, [ok] or [FAIL] with its fix; exit 1 if any failed; changes nothing)`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  if (args.length > 0) {
    const help = args.every((a) => a === '--help' || a === '-h');
    (help ? console.log : console.error)(help ? USAGE : `npm run doctor: unknown argument ${args.join(' ')}\n${USAGE}`);
    process.exitCode = help ? 0 : 2;
  } else {
    process.exitCode = await doctor(process.env);
  }
}
