/** The data folder holds the requests and the audit log: only the bot's own user may read it. */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/runtime/logger.js';
import { openStores } from '../../../src/bot/runtime/stores.js';
import { tempDir } from './support/temp.js';

const clock = { now: () => Date.UTC(2025, 0, 1), sleep: async () => {} };

describe('DATA_DIR', () => {
  it('is created 0700 when missing', async () => {
    const dir = join(tempDir(), 'data');
    const stores = await openStores(dir, clock, [], createLogger({ level: 'error', secrets: [], write: () => {} }));
    await stores.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'requests.json')).mode & 0o777).toBe(0o600);
  });

  it('an existing folder others can read is left as it is, with a warning naming the fix', async () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const lines: string[] = [];
    const stores = await openStores(
      dir,
      clock,
      [],
      createLogger({ level: 'warn', secrets: [], write: (l) => lines.push(l) }),
    );
    await stores.close();
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(lines.join('\n')).toMatch(/can be read by other users \(mode 755\); chmod 700 it/);
  });
});
