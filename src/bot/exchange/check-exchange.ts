// `npm run check-exchange`: an operator's smoke check that prints balances or one sentence saying
// what is wrong. Same edges as the bot: signs only over https (http only to loopback), reads only an
// owner-only key file; reads the environment itself, in `readCheckEnv` only.
import { pathToFileURL } from 'node:url';
import type { Clock } from '../ports/clock.js';
import { add } from '../domain/money.js';
import { safeForSecrets } from '../domain/secret-edges.js';
import { createExchangeClient, systemClock } from './client.js';
import { ExchangeError } from '../ports/exchange-error.js';
import { hasKeyConfig, loadExchangeKey, type KeyConfig } from './keys.js';
import type { Balance } from './schemas.js';
import { KeyError } from './signer.js';
import type { FetchLike } from './transport.js';

const USAGE = [
  'usage: npm run check-exchange',
  'Reads the balances with the configured exchange key, or says in one sentence what is wrong. It reads:',
  '  EXCHANGE_BASE_URL          https://… (plain http:// only to this machine: localhost, 127.0.0.1, [::1])',
  '  EXCHANGE_PRIVATE_KEY_FILE  a file holding the key, readable by its owner only (chmod 600)',
  '    or EXCHANGE_PRIVATE_KEY  the key itself (64 hex digits or PEM)',
  '  EXCHANGE_API_KEY           optional: the public key as registered, if not the derived one',
].join('\n');

/** A 401 with the server's clock further than this from ours is reported as clock skew. */
export const CLOCK_SKEW_HINT_MS = 5_000;

export interface CheckEnv extends KeyConfig {
  baseUrl?: string | undefined;
}

/** The only place that reads process.env here. */
export function readCheckEnv(env: NodeJS.ProcessEnv = process.env): CheckEnv {
  return {
    baseUrl: env.EXCHANGE_BASE_URL,
    privateKey: env.EXCHANGE_PRIVATE_KEY,
    privateKeyFile: env.EXCHANGE_PRIVATE_KEY_FILE,
    apiKey: env.EXCHANGE_API_KEY,
  };
}

export interface CheckDeps {
  fetch?: FetchLike;
  clock?: Clock;
  timeoutMs?: number;
  out?: (line: string) => void;
  /** Told, after the read (answered or refused), the exchange's clock minus ours from its Date header (ms), if it sent one. */
  clockOffset?: (offsetMs: number | undefined) => void;
}

/** The command: `--help` (or `-h`) prints the usage; no argument runs the check. Resolves with the exit code. */
export async function checkExchangeCli(argv: readonly string[], env: CheckEnv, deps: CheckDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  if (argv.length === 0) return checkExchange(env, deps);
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    out(USAGE);
    return 0;
  }
  out(`unknown argument ${argv.find((a) => a !== '--help' && a !== '-h') ?? argv[0]}\n${USAGE}`);
  return 2;
}

/** Run the check; resolves with the process exit code (0 when balances were read). */
export async function checkExchange(env: CheckEnv, deps: CheckDeps = {}): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const clock = deps.clock ?? systemClock;
  const fail = (sentence: string): number => {
    out(sentence);
    return 1;
  };

  const baseUrl = env.baseUrl?.trim();
  if (!baseUrl)
    return fail('EXCHANGE_BASE_URL is not set: set it to the exchange address, for example https://exchange.example.');
  const plain = plainHttpHost(baseUrl);
  if (plain !== undefined) {
    return fail(
      `EXCHANGE_BASE_URL is plain http:// to ${plain}: signed requests go only over https:// (plain http only to this machine: localhost, 127.0.0.1, [::1]), as the bot requires.`,
    );
  }
  if (!hasKeyConfig(env))
    return fail(
      'No exchange key is configured: set EXCHANGE_PRIVATE_KEY (hex) or EXCHANGE_PRIVATE_KEY_FILE (hex or PEM).',
    );

  let key;
  try {
    key = loadExchangeKey(env);
  } catch (e) {
    if (e instanceof KeyError) return fail(`The exchange key cannot be used: ${e.message}.`);
    throw e;
  }

  let client;
  try {
    client = createExchangeClient({
      baseUrl,
      signer: key.signer,
      clock,
      rateLimit: false,
      timeoutMs: deps.timeoutMs ?? 10_000,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  } catch (e) {
    return fail(`EXCHANGE_BASE_URL is not usable: ${(e as Error).message}.`);
  }

  try {
    const balances = await client.listBalances();
    out(`Balances at ${baseUrl} for key ${key.apiKey}:`);
    out(balances.length === 0 ? 'No non-zero balances.' : balanceTable(balances));
    return 0;
  } catch (e) {
    if (!(e instanceof ExchangeError)) throw e;
    return fail(explain(e, baseUrl, key.apiKey, clock.now()));
  } finally {
    deps.clockOffset?.(client.clockOffsetMs());
  }
}

/** The host of a URL that would carry signed requests unencrypted off this machine; undefined otherwise (a bad URL is judged later). */
function plainHttpHost(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' && !safeForSecrets(url) ? url.hostname : undefined;
}

export function explain(e: ExchangeError, baseUrl: string, apiKey: string, nowMs: number): string {
  switch (e.kind) {
    case 'unauthorized': {
      if (e.serverTimeMs !== undefined && Math.abs(nowMs - e.serverTimeMs) > CLOCK_SKEW_HINT_MS) {
        const seconds = Math.round(Math.abs(nowMs - e.serverTimeMs) / 1000);
        const direction = nowMs > e.serverTimeMs ? 'ahead of' : 'behind';
        return `The exchange refused the request and this machine's clock is ${seconds} s ${direction} the exchange's: fix the clock (NTP) and try again.`;
      }
      return `The exchange did not accept the key (401): check that public key ${apiKey} is registered for this environment and this machine's IP is allowed.`;
    }
    case 'forbidden':
      return `The key is known but not allowed to read balances (403)${said(e)}.`;
    case 'network':
    case 'timeout':
      return `The exchange at ${baseUrl} could not be reached (${e.kind === 'timeout' ? 'no answer in time' : (e.detail ?? 'connection failed')}): check EXCHANGE_BASE_URL and the network.`;
    case 'invalid_response':
      return `The exchange at ${baseUrl} answered with something that is not a balance list (${e.fieldPath ?? e.detail ?? 'unreadable'}): check EXCHANGE_BASE_URL.`;
    default:
      return `The exchange refused to list balances (${e.status ?? e.kind})${said(e)}.`;
  }
}

function said(e: ExchangeError): string {
  return e.messages.length > 0 ? `: ${e.messages.join('; ')}` : '';
}

/** currency | available | locked | total, right-aligned numbers; sums via the decimal library. */
export function balanceTable(balances: Balance[]): string {
  const rows = balances.map((b) => {
    const locked = add(b.locked_balance.orders, b.locked_balance.alternative_products);
    return [b.currency, b.regular, locked, add(b.regular, locked)];
  });
  const head = ['currency', 'available', 'locked', 'total'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await checkExchangeCli(process.argv.slice(2), readCheckEnv());
}
