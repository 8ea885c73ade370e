/**
 * compose.yaml is an example that cannot be started here (no Docker engine on these machines), so
 * what it says is checked instead: two replicas of the bot on Node 22, one PostgreSQL, one exchange,
 * every variable one the bot reads, and no secret written into the file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envShape } from '../../src/config/index.js';

const text = readFileSync(fileURLToPath(new URL('../../compose.yaml', import.meta.url)), 'utf8');
type Service = { image?: string; environment?: Record<string, string>; depends_on?: Record<string, unknown> };
const compose = parse(text, { merge: true }) as { services: Record<string, Service> };
const bots = Object.entries(compose.services).filter(([, s]) => s.environment?.SLACK_BOT_TOKEN !== undefined);

describe('compose.yaml (an example)', () => {
  it('says it is an example', () => {
    expect(text.split('\n')[0]).toMatch(/^# EXAMPLE, not run here/);
  });

  it('runs two replicas of the bot on Node 22 against one PostgreSQL and one exchange URL', () => {
    expect(bots.map(([name]) => name)).toHaveLength(2);
    for (const [, bot] of bots) {
      expect(bot.image).toMatch(/^node:22\b/);
      expect(bot.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(bot.environment?.EXCHANGE_BASE_URL).toBe('${EXCHANGE_BASE_URL:?set EXCHANGE_BASE_URL}');
      expect(bot.environment?.SINGLE_REPLICA).toBeUndefined();
      expect(bot.depends_on).toHaveProperty('postgres');
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:1[5-9]\b/);
  });

  it('sets only variables the bot reads', () => {
    for (const [, bot] of bots) for (const name of Object.keys(bot.environment ?? {})) expect(Object.keys(envShape), name).toContain(name);
  });

  it('takes every secret from the environment, never from the file', () => {
    for (const [, bot] of bots) {
      for (const name of ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'EXCHANGE_PRIVATE_KEY']) expect(bot.environment?.[name]).toBe(`\${${name}:?set ${name}}`);
    }
    expect(text).not.toMatch(/xox[bpa]-|:\/\/desk:[^$]/);
  });
});
