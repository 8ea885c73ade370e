import { describe, expect, it } from 'vitest';
import type { LogLevel } from '@slack/bolt';
import { createLogger } from '../../../src/bot/runtime/logger.js';

function capture(level: 'debug' | 'info' | 'warn' | 'error', secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({ level, secrets, write: (l) => lines.push(l), now: () => 0 });
  return { logger, lines };
}

describe('process logger', () => {
  it('filters by LOG_LEVEL and writes JSON lines', () => {
    const { logger, lines } = capture('warn');
    logger.info('quiet');
    logger.warn('loud', { n: 1 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'loud', n: 1 });
  });

  it('redacts configured secrets in any letter case, wherever they appear', () => {
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const { logger, lines } = capture('debug', [key, 'xoxb-123-456-secret']);
    logger.error('boom', { error: new Error(`bad key ${key.toUpperCase()}`), token: 'xoxb-123-456-secret' });
    logger.bolt().warn('bolt says', { header: `Bearer xoxb-123-456-secret` });
    const all = lines.join('\n');
    expect(all).not.toMatch(/a1b2c3d4e5f6/i);
    expect(all).not.toContain('xoxb-123-456-secret');
    expect(all.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('redacts before serialising: a secret with a quote or a backslash does not print in its JSON-escaped form', () => {
    // The issue's password as written (`Pa\"ss\\word-2024`), and as a shell would pass it.
    const asWritten = String.raw`Pa\"ss\\word-2024`;
    for (const secret of [asWritten, String.raw`Pa"ss\word-2024`, 'quote"only-secret', String.raw`back\slash-secret`]) {
      const { logger, lines } = capture('debug', [secret]);
      logger.error(`login failed for ${secret}`, {
        error: new Error(`password authentication failed: ${secret}`),
        url: `postgres://u:${secret}@db/x`,
        [`key ${secret}`]: 1,
      });
      logger.bolt().warn('bolt says', { password: secret });
      const all = lines.join('\n');
      expect(all).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(all).not.toContain(secret);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(all.match(/\[redacted\]/g)?.length).toBe(5);
    }
  });

  it('keeps LOG_LEVEL when a library calls setLevel on the Bolt-shaped logger', () => {
    const { logger, lines } = capture('debug');
    const bolt = logger.bolt();
    bolt.setLevel('info' as LogLevel);
    bolt.debug('still visible');
    logger.debug('me too');
    expect(lines).toHaveLength(2);
  });
});
