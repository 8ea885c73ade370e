import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';
import { publicKeyHex } from '../../../src/bot/exchange/signer.js';
import { inspect } from 'node:util';

const BOT_TOKEN = 'xoxb-111111111-222222222-SECRETBOTTOKENVALUE';
const SIGNING = 'signingsecretvalue0123456789abcd';
const APP_TOKEN = 'xapp-1-A000-SECRETAPPTOKENVALUE';
const HEX_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

const base = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING,
  APPROVAL_CHANNEL_ID: 'C0123ABCD',
  REQUESTER_USER_IDS: 'U0000001',
  APPROVER_USER_IDS: 'U0000002,U0000003',
};

function problemsOf(env: Record<string, string | undefined>, options = {}): { variable: string; message: string }[] {
  try {
    loadConfig(env, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults on a minimal sandbox environment', () => {
    const c = loadConfig(base, { cwd: '/srv/bot' });
    expect(c.slack.mode).toBe('http');
    expect(c.slack.apiUrl).toBe('https://slack.com/api/');
    expect(c.slack.port).toBe(3000);
    expect(c.approvals).toEqual({
      required: 2,
      withdrawalExpiryMs: 1440 * 60_000,
      tradeExpiryMs: 15 * 60_000,
      quoteSafetyMarginMs: 500,
      unknownSettleWindowMs: 600_000,
    });
    expect(c.exchange).toEqual({ kind: 'sandbox', rateLimitPerSecond: 5 });
    expect(c.dataDir).toBe('/srv/bot/data');
    expect(c.pollIntervalMs).toBe(10_000);
    expect(c.logLevel).toBe('info');
    expect(c.users).toEqual({ requesters: ['U0000001'], approvers: ['U0000002', 'U0000003'], compliance: [] });
    expect(c.channels.compliance).toBeUndefined();
    expect(c.slack.botToken.reveal()).toBe(BOT_TOKEN);
  });

  it('treats empty values as unset and trims list entries', () => {
    const c = loadConfig({ ...base, PORT: '', LOG_LEVEL: ' ', APPROVER_USER_IDS: ' U0000002 , ,U0000003,U0000002' });
    expect(c.slack.port).toBe(3000);
    expect(c.logLevel).toBe('info');
    expect(c.users.approvers).toEqual(['U0000002', 'U0000003']);
  });

  it('switches to Socket Mode when SLACK_APP_TOKEN is set, where the signing secret is optional', () => {
    const c = loadConfig({ ...base, SLACK_SIGNING_SECRET: undefined, SLACK_APP_TOKEN: APP_TOKEN });
    expect(c.slack.mode).toBe('socket');
    expect(c.slack.signingSecret).toBeUndefined();
    expect(problemsOf({ ...base, SLACK_SIGNING_SECRET: undefined }).map((p) => p.variable)).toEqual([
      'SLACK_SIGNING_SECRET',
    ]);
  });

  it('adds the trailing slash the Web API client expects', () => {
    expect(loadConfig({ ...base, SLACK_API_URL: 'http://127.0.0.1:4567/api' }).slack.apiUrl).toBe(
      'http://127.0.0.1:4567/api/',
    );
    expect(problemsOf({ ...base, SLACK_API_URL: 'http://proxy.internal/api' })[0]?.variable).toBe('SLACK_API_URL');
  });

  it('lists every problem at once, in variable order, without echoing any secret', () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxp-user-token-SECRETUSERTOKEN',
      SLACK_SIGNING_SECRET: 'short SECRETSIGN',
      SLACK_APP_TOKEN: 'SECRETAPPNOPREFIX',
      PORT: '70000',
      APPROVAL_CHANNEL_ID: '#desk-approvals',
      REQUESTER_USER_IDS: 'alice,U0000001',
      APPROVER_USER_IDS: 'U0000002',
      REQUIRED_APPROVALS: '1',
      EXCHANGE_PRIVATE_KEY: 'SECRETKEYMATERIAL',
      POLL_INTERVAL_MS: 'soon',
      LOG_LEVEL: 'verbose',
    };
    let message = '';
    try {
      loadConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    const problems = problemsOf(env);
    expect(problems.map((p) => p.variable)).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_APP_TOKEN',
      'PORT',
      'APPROVAL_CHANNEL_ID',
      'REQUESTER_USER_IDS',
      'REQUIRED_APPROVALS',
      'EXCHANGE_PRIVATE_KEY',
      'POLL_INTERVAL_MS',
      'LOG_LEVEL',
    ]);
    expect(message).toContain('(10 problems)');
    expect(message).toContain('"alice" is not a Slack user id');
    for (const secret of ['SECRETUSERTOKEN', 'SECRETSIGN', 'SECRETAPPNOPREFIX', 'SECRETKEYMATERIAL'])
      expect(message).not.toContain(secret);
  });

  it('needs as many approvers as approvals', () => {
    const p = problemsOf({ ...base, REQUIRED_APPROVALS: '3' });
    expect(p).toEqual([{ variable: 'APPROVER_USER_IDS', message: expect.stringContaining('REQUIRED_APPROVALS is 3') }]);
  });

  it('refuses a requester left without enough approvers besides themself, naming them', () => {
    const p = problemsOf({
      ...base,
      REQUESTER_USER_IDS: 'U0000001',
      APPROVER_USER_IDS: 'U0000001,U0000002',
      REQUIRED_APPROVALS: '2',
    });
    expect(p).toEqual([
      {
        variable: 'REQUESTER_USER_IDS',
        message: expect.stringMatching(/requester U0000001 is also an approver, which leaves 1 other approver/),
      },
    ]);
    expect(
      loadConfig({ ...base, REQUESTER_USER_IDS: 'U0000001', APPROVER_USER_IDS: 'U0000001,U0000002,U0000003' }).users
        .requesters,
    ).toEqual(['U0000001']);
  });

  it('reports missing required variables by name', () => {
    expect(problemsOf({}).map((p) => p.variable)).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'APPROVAL_CHANNEL_ID',
      'REQUESTER_USER_IDS',
      'APPROVER_USER_IDS',
    ]);
  });

  it('requires compliance officers when a compliance channel is set', () => {
    expect(problemsOf({ ...base, COMPLIANCE_CHANNEL_ID: 'C0456EFGH' }).map((p) => p.variable)).toEqual([
      'COMPLIANCE_USER_IDS',
    ]);
    const c = loadConfig({ ...base, COMPLIANCE_CHANNEL_ID: 'C0456EFGH', COMPLIANCE_USER_IDS: 'U0000009' });
    expect(c.channels.compliance).toBe('C0456EFGH');
    expect(c.users.compliance).toEqual(['U0000009']);
  });

  describe('exchange', () => {
    const remote = { ...base, EXCHANGE_BASE_URL: 'https://exchange.example' };

    it('refuses key variables without EXCHANGE_BASE_URL rather than silently using the sandbox', () => {
      expect(problemsOf({ ...base, EXCHANGE_PRIVATE_KEY: HEX_KEY }).map((p) => p.variable)).toEqual([
        'EXCHANGE_PRIVATE_KEY',
      ]);
    });

    it('needs exactly one of the key and the key file with a real exchange', () => {
      expect(problemsOf(remote).map((p) => p.variable)).toEqual(['EXCHANGE_PRIVATE_KEY']);
      const both = problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY, EXCHANGE_PRIVATE_KEY_FILE: '/k.pem' });
      expect(both).toEqual([{ variable: 'EXCHANGE_PRIVATE_KEY', message: expect.stringContaining('both set') }]);
    });

    it('loads an inline hex key as a Secret that never prints', () => {
      const c = loadConfig({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY });
      expect(c.exchange.kind).toBe('remote');
      if (c.exchange.kind !== 'remote') throw new Error('unreachable');
      expect(c.exchange.baseUrl).toBe('https://exchange.example');
      expect(Buffer.from(c.exchange.privateKey.reveal()).toString('hex')).toBe(HEX_KEY);
      const printed = inspect(c, { depth: 10 }) + JSON.stringify(c);
      expect(printed).not.toContain(HEX_KEY);
      expect(printed).not.toContain('SECRETBOTTOKENVALUE');
      expect(printed).not.toContain(SIGNING);
    });

    it('reads a PEM key file, and names an unreadable one without quoting contents', () => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
      const pem = privateKey.export({ format: 'pem', type: 'sec1' }).toString();
      const files: Record<string, string> = { '/run/secrets/key.pem': pem, '/bad.pem': 'not a key SECRETJUNK' };
      const readFile = (p: string) => {
        const text = files[p];
        if (text === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
        return text;
      };
      const c = loadConfig({ ...remote, EXCHANGE_PRIVATE_KEY_FILE: '/run/secrets/key.pem' }, { readFile });
      expect(c.exchange.kind).toBe('remote');
      expect(problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY_FILE: '/missing.pem' }, { readFile })).toEqual([
        { variable: 'EXCHANGE_PRIVATE_KEY_FILE', message: 'cannot read /missing.pem (ENOENT)' },
      ]);
      const bad = problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY_FILE: '/bad.pem' }, { readFile });
      expect(bad.map((p) => p.variable)).toEqual(['EXCHANGE_PRIVATE_KEY_FILE']);
      expect(JSON.stringify(bad)).not.toContain('SECRETJUNK');
    });

    it('refuses a key file that group or others can read, naming the chmod (as ssh does)', () => {
      const path = join(mkdtempSync(join(tmpdir(), 'key-mode-')), 'key.hex');
      writeFileSync(path, HEX_KEY);
      chmodSync(path, 0o644);
      expect(problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY_FILE: path })).toEqual([
        {
          variable: 'EXCHANGE_PRIVATE_KEY_FILE',
          message: `${path} can be read by group or others (mode 644): a secret must be readable by its owner only; chmod 600 ${path}`,
        },
      ]);
      chmodSync(path, 0o600);
      expect(loadConfig({ ...remote, EXCHANGE_PRIVATE_KEY_FILE: path }).exchange.kind).toBe('remote');
    });

    it('checks that EXCHANGE_API_KEY is the public key of the private key', () => {
      const c = loadConfig({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY });
      if (c.exchange.kind !== 'remote') throw new Error('unreachable');
      const own = publicKeyHex(c.exchange.privateKey);
      expect(
        loadConfig({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY, EXCHANGE_API_KEY: own.toLowerCase() }).exchange,
      ).toMatchObject({ apiKey: own });
      const other = `02${'11'.repeat(32)}`;
      expect(
        problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY, EXCHANGE_API_KEY: other }).map((p) => p.variable),
      ).toEqual(['EXCHANGE_API_KEY']);
    });

    it('polls a real exchange no faster than once a second, the sandbox as fast as the demo likes', () => {
      expect(
        problemsOf({ ...remote, EXCHANGE_PRIVATE_KEY: HEX_KEY, POLL_INTERVAL_MS: '200' }).map((p) => p.variable),
      ).toEqual(['POLL_INTERVAL_MS']);
      expect(loadConfig({ ...base, POLL_INTERVAL_MS: '200' }).pollIntervalMs).toBe(200);
      expect(problemsOf({ ...base, POLL_INTERVAL_MS: '10' }).map((p) => p.variable)).toEqual(['POLL_INTERVAL_MS']);
    });

    it('accepts plain http only for a loopback exchange', () => {
      expect(
        problemsOf({ ...base, EXCHANGE_BASE_URL: 'http://exchange.example', EXCHANGE_PRIVATE_KEY: HEX_KEY }).map(
          (p) => p.variable,
        ),
      ).toEqual(['EXCHANGE_BASE_URL']);
      expect(
        loadConfig({ ...base, EXCHANGE_BASE_URL: 'http://127.0.0.1:8080', EXCHANGE_PRIVATE_KEY: HEX_KEY }).exchange
          .kind,
      ).toBe('remote');
    });
  });

  describe('store', () => {
    const DB_PASSWORD = 'Db-Pass%2Fw0rd-SECRETDB';
    const DB_URL = `postgres://desk:${DB_PASSWORD}@db.internal:5432/desk`;
    const remote = { ...base, EXCHANGE_BASE_URL: 'https://exchange.example', EXCHANGE_PRIVATE_KEY: HEX_KEY };

    it('uses the files in DATA_DIR when DATABASE_URL is unset', () => {
      expect(loadConfig(base).database).toBeUndefined();
    });

    it('holds DATABASE_URL as a Secret that never prints, with SINGLE_REPLICA false by default', () => {
      const c = loadConfig({ ...remote, DATABASE_URL: DB_URL });
      expect(c.database?.url.reveal()).toBe(DB_URL);
      expect(c.database?.singleReplica).toBe(false);
      const printed = inspect(c, { depth: 10 }) + JSON.stringify(c);
      expect(printed).not.toContain('SECRETDB');
    });

    it('refuses what is not a PostgreSQL URL, or a password too short to hide, without quoting it', () => {
      for (const value of [
        'mysql://desk:SECRETDB-long-enough@db/desk',
        'desk:SECRETDB-long-enough@db',
        'postgres://desk:SECRETD@db/desk',
        'postgres://desk@db/desk?password=SECRETD',
      ]) {
        const p = problemsOf({ ...remote, DATABASE_URL: value });
        expect(
          p.map((x) => x.variable),
          value,
        ).toEqual(['DATABASE_URL']);
        expect(JSON.stringify(p)).not.toContain('SECRETD');
      }
      expect(loadConfig({ ...remote, DATABASE_URL: 'postgresql://desk@db.internal/desk' }).database?.url.reveal()).toBe(
        'postgresql://desk@db.internal/desk',
      );
    });

    it('refuses the embedded sandbox with DATABASE_URL unless told this is the only replica', () => {
      const p = problemsOf({ ...base, DATABASE_URL: DB_URL });
      expect(p).toEqual([
        { variable: 'DATABASE_URL', message: expect.stringMatching(/EXCHANGE_BASE_URL is unset.*SINGLE_REPLICA=true/) },
      ]);
      expect(JSON.stringify(p)).not.toContain('SECRETDB');
      const single = loadConfig({ ...base, DATABASE_URL: DB_URL, SINGLE_REPLICA: 'true' });
      expect(single.exchange.kind).toBe('sandbox');
      expect(single.database?.singleReplica).toBe(true);
      expect(problemsOf({ ...base, SINGLE_REPLICA: 'yes' }).map((x) => x.variable)).toEqual(['SINGLE_REPLICA']);
    });
  });
});
