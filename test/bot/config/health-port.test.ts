/** HEALTH_PORT and HEALTH_HOST (src/bot/config/env-schema.ts, load-config.ts): optional, a port never PORT in HTTP mode, and the address it listens on (loopback by default). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';

const base = {
  SLACK_BOT_TOKEN: 'xoxb-111111111-222222222-SECRETBOTTOKENVALUE',
  SLACK_SIGNING_SECRET: 'signingsecretvalue0123456789abcd',
  APPROVAL_CHANNEL_ID: 'C0123ABCD',
  REQUESTER_USER_IDS: 'U0000001',
  APPROVER_USER_IDS: 'U0000002,U0000003',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => `${p.variable}: ${p.message}`);
  }
  throw new Error('expected a ConfigError');
}

describe('HEALTH_PORT', () => {
  it('is unset by default, and a port when set', () => {
    expect(loadConfig(base).healthPort).toBeUndefined();
    expect(loadConfig({ ...base, HEALTH_PORT: '' }).healthPort).toBeUndefined();
    expect(loadConfig({ ...base, HEALTH_PORT: '9090' }).healthPort).toBe(9090);
    expect(loadConfig({ ...base, HEALTH_PORT: '0' }).healthPort).toBe(0);
  });

  it('refuses what is not a port, and PORT itself in HTTP mode (it is served there already)', () => {
    expect(problems({ ...base, HEALTH_PORT: 'ninety' })).toEqual([
      'HEALTH_PORT: must be a whole number from 0 to 65535',
    ]);
    expect(problems({ ...base, PORT: '8080', HEALTH_PORT: '8080' })).toEqual([
      expect.stringMatching(
        /^HEALTH_PORT: is PORT \(8080\): the operations endpoints are never served on the port Slack reaches/,
      ),
    ]);
    // Socket Mode has no PORT to clash with.
    expect(
      loadConfig({ ...base, SLACK_APP_TOKEN: 'xapp-1-A000-SECRETAPPTOKENVALUE', PORT: '8080', HEALTH_PORT: '8080' })
        .healthPort,
    ).toBe(8080);
  });
});

describe('HEALTH_HOST', () => {
  it('is loopback by default, any IP address when set (0.0.0.0 or :: for a probe from outside the container)', () => {
    expect(loadConfig(base).healthHost).toBe('127.0.0.1');
    expect(loadConfig({ ...base, HEALTH_HOST: '0.0.0.0' }).healthHost).toBe('0.0.0.0');
    expect(loadConfig({ ...base, HEALTH_HOST: '::' }).healthHost).toBe('::');
    expect(loadConfig({ ...base, HEALTH_HOST: 'localhost' }).healthHost).toBe('localhost');
  });

  it('refuses what is not an address to listen on', () => {
    expect(problems({ ...base, HEALTH_HOST: 'health.example.com' })).toEqual([
      expect.stringMatching(/^HEALTH_HOST: must be an IP address to listen on/),
    ]);
  });
});
