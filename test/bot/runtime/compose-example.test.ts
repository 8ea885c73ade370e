/**
 * compose.yaml is an example that cannot be started here (no Docker engine on these machines), so
 * what it says is checked instead: two replicas of the bot built from the Dockerfile, one
 * PostgreSQL, one exchange, every variable one the bot reads, every secret a file (compose
 * `secrets:`) and none in the environment or the file, the health ports on loopback only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envShape, SECRET_VARIABLES } from '../../../src/bot/config/index.js';

const text = readFileSync(fileURLToPath(new URL('../../../compose.yaml', import.meta.url)), 'utf8');
type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
  secrets?: string[];
  ports?: string[];
};
const compose = parse(text, { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file?: string; environment?: string }>;
};
const bots = Object.entries(compose.services).filter(([, s]) => s.environment?.SLACK_BOT_TOKEN_FILE !== undefined);

describe('compose.yaml (an example)', () => {
  it('says it is an example', () => {
    expect(text.split('\n')[0]).toMatch(/^# EXAMPLE, not run here/);
  });

  it('runs two replicas of the image built from the Dockerfile against one PostgreSQL and one exchange URL', () => {
    expect(bots.map(([name]) => name)).toHaveLength(2);
    for (const [, bot] of bots) {
      expect(bot.build).toBe('.');
      expect(bot.environment?.EXCHANGE_BASE_URL).toBe('${EXCHANGE_BASE_URL:?set EXCHANGE_BASE_URL}');
      expect(bot.environment?.SINGLE_REPLICA).toBeUndefined();
      expect(bot.depends_on).toHaveProperty('postgres');
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:1[5-9]\b/);
  });

  it('sets only variables the bot reads', () => {
    for (const [, bot] of bots)
      for (const name of Object.keys(bot.environment ?? {})) expect(Object.keys(envShape), name).toContain(name);
  });

  it('passes every secret as a file: no secret variable in the environment, none written in the file', () => {
    for (const [, bot] of bots) {
      for (const name of SECRET_VARIABLES) expect(bot.environment, name).not.toHaveProperty(name);
      for (const name of ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'EXCHANGE_PRIVATE_KEY', 'DATABASE_URL']) {
        const path = bot.environment?.[`${name}_FILE`];
        expect(path, name).toMatch(/^\/run\/secrets\/[a-z_]+$/);
        const secret = path!.split('/').at(-1)!;
        expect(bot.secrets, name).toContain(secret);
        expect(compose.secrets[secret], name).toEqual({ file: `./secrets/${secret}` });
      }
    }
    expect(compose.services.postgres?.environment).not.toHaveProperty('POSTGRES_PASSWORD');
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
    expect(text).not.toMatch(/xox[bpa]-[0-9A-Za-z]|:\/\/desk:[^<]/);
  });

  it('publishes the health and metrics port on the host loopback only', () => {
    for (const [, bot] of bots) {
      expect(bot.ports?.length).toBeGreaterThan(0);
      for (const port of bot.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:9090$/);
    }
  });
});
