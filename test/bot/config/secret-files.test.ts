/**
 * `<NAME>_FILE`: every secret variable can be read from a file (compose `secrets:`, mounted in
 * /run/secrets/), so the values stay out of the environment; and the Slack tokens' own checks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';
import { wantsPreview } from '../../../src/stand-ins/preview/preview.js';

const BOT_TOKEN = 'xoxb-111111111-222222222-SECRETBOTTOKENVALUE';
const SIGNING = 'signingsecretvalue0123456789abcd';
const APP_TOKEN = 'xapp-1-A000-SECRETAPPTOKENVALUE';
const DATABASE_URL = 'postgres://desk:SECRETDBPASSWORD@db:5432/desk';
const HEX_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

const people = {
  APPROVAL_CHANNEL_ID: 'C0123ABCD',
  REQUESTER_USER_IDS: 'U0000001',
  APPROVER_USER_IDS: 'U0000002,U0000003',
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes each file into a fresh folder (mode 0600, as a mounted secret) and returns the folder. */
function secretsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
  return dir;
}

function problemsOf(env: Record<string, string | undefined>, cwd?: string): { variable: string; message: string }[] {
  try {
    loadConfig(env, cwd ? { cwd } : {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('secrets from files (<NAME>_FILE)', () => {
  it('reads every secret from its file, without the trailing newline, and never prints it', () => {
    const dir = secretsDir({
      bot: `${BOT_TOKEN}\n`,
      signing: `${SIGNING}\r\n`,
      app: APP_TOKEN,
      db: `${DATABASE_URL}\n`,
      key: `${HEX_KEY}\n`,
    });
    const c = loadConfig(
      {
        ...people,
        SLACK_BOT_TOKEN_FILE: join(dir, 'bot'),
        SLACK_SIGNING_SECRET_FILE: join(dir, 'signing'),
        SLACK_APP_TOKEN_FILE: 'app', // relative: to the working directory
        DATABASE_URL_FILE: join(dir, 'db'),
        EXCHANGE_BASE_URL: 'https://exchange.example',
        EXCHANGE_PRIVATE_KEY_FILE: join(dir, 'key'),
      },
      { cwd: dir },
    );
    expect(c.slack.botToken.reveal()).toBe(BOT_TOKEN);
    expect(c.slack.signingSecret?.reveal()).toBe(SIGNING);
    expect(c.slack.appToken?.reveal()).toBe(APP_TOKEN);
    expect(c.slack.mode).toBe('socket');
    expect(c.database?.url.reveal()).toBe(DATABASE_URL);
    expect(c.exchange.kind === 'remote' && Buffer.from(c.exchange.privateKey.reveal()).toString('hex')).toBe(HEX_KEY);
    const printed = JSON.stringify(c);
    for (const secret of ['SECRETBOTTOKENVALUE', SIGNING, 'SECRETAPPTOKENVALUE', 'SECRETDBPASSWORD', HEX_KEY])
      expect(printed).not.toContain(secret);
  });

  it('a token given as a file is a configured bot: npm start does not run the local preview', () => {
    expect(wantsPreview({})).toBe(true);
    expect(wantsPreview({ SLACK_BOT_TOKEN_FILE: '/run/secrets/slack-bot-token' })).toBe(false);
  });

  it('refuses a variable set both ways, an unreadable file and an empty one, each against the variable to fix', () => {
    const dir = secretsDir({ empty: '\n', bot: BOT_TOKEN });
    const problems = problemsOf(
      {
        ...people,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_BOT_TOKEN_FILE: join(dir, 'bot'),
        SLACK_SIGNING_SECRET_FILE: join(dir, 'missing'),
        DATABASE_URL_FILE: join(dir, 'empty'),
      },
      dir,
    );
    expect(problems).toEqual([
      { variable: 'SLACK_BOT_TOKEN', message: 'and SLACK_BOT_TOKEN_FILE are both set: keep one' },
      // No second "SLACK_SIGNING_SECRET is required in HTTP mode": the file is the problem.
      { variable: 'SLACK_SIGNING_SECRET_FILE', message: `cannot read ${join(dir, 'missing')} (ENOENT)` },
      { variable: 'DATABASE_URL_FILE', message: `${join(dir, 'empty')} is empty` },
    ]);
  });

  it("names the file variable when the file's content is not valid, without quoting it", () => {
    const dir = secretsDir({ bot: 'xoxp-SECRETUSERTOKEN-123456', db: 'mysql://SECRETDB@x/y' });
    const problems = problemsOf({
      ...people,
      SLACK_SIGNING_SECRET: SIGNING,
      SLACK_BOT_TOKEN_FILE: join(dir, 'bot'),
      DATABASE_URL_FILE: join(dir, 'db'),
    });
    expect(problems.map((p) => p.variable)).toEqual(['SLACK_BOT_TOKEN_FILE', 'DATABASE_URL_FILE']);
    expect(JSON.stringify(problems)).not.toMatch(/SECRET/);
  });
});

describe('Slack tokens', () => {
  const withToken = (token: string) => problemsOf({ ...people, SLACK_SIGNING_SECRET: SIGNING, SLACK_BOT_TOKEN: token });

  it('a truncated paste is too short, not a wrong prefix', () => {
    expect(withToken('xoxb-123')).toEqual([
      { variable: 'SLACK_BOT_TOKEN', message: expect.stringContaining('is too short to be the bot token') },
    ]);
    expect(withToken('xoxb-123')[0]!.message).not.toContain('does not start');
  });

  it('says which rule a token breaks', () => {
    expect(withToken('xoxp-1111111111-2222222222')[0]!.message).toMatch(/^does not start with xoxb-/);
    expect(withToken('xoxb-1111111111 2222222222')[0]!.message).toMatch(/^contains a space/);
    expect(withToken('xoxb-1111111111…2222222222')[0]!.message).toMatch(/^is malformed/);
    expect(problemsOf({ ...people, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: 'xapp-1-A0' })).toEqual([
      { variable: 'SLACK_APP_TOKEN', message: expect.stringContaining('is too short to be an app-level token') },
    ]);
  });
});
