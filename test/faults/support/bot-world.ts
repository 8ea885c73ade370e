/**
 * What the real bot (src/main.ts, bundled, run as a process) needs around it in a fault test: its
 * bundle, a sandbox exchange that knows the test's key, the fake Slack Web API expecting the bot
 * token, and an empty data folder. Made before the file's tests, removed after them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { startSandbox, type Sandbox } from '../../../src/stand-ins/sandbox/index.js';
import { bundleEntry, type Bundle } from './child-process.js';
import type { FaultKey } from './keys.js';

export interface BotWorld {
  readonly bundle: Bundle;
  readonly sandbox: Sandbox;
  readonly fake: FakeSlackApi;
  readonly dataDir: string;
}

export function useBotWorld(options: { seed: string; key: FaultKey; botToken: string }): BotWorld {
  const world: { -readonly [K in keyof BotWorld]?: BotWorld[K] } = {};
  beforeAll(async () => {
    [world.bundle, world.sandbox, world.fake] = await Promise.all([
      bundleEntry('../../../src/main.ts'),
      startSandbox({
        seed: options.seed,
        keys: [{ publicKeyHex: options.key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
      }),
      startFakeSlackApi({ expectedToken: options.botToken }),
    ]);
    world.dataDir = mkdtempSync(join(tmpdir(), `${options.seed}-`));
  }, 30_000);
  afterAll(async () => {
    world.bundle?.dispose();
    await world.sandbox?.close();
    await world.fake?.stop();
    if (world.dataDir) rmSync(world.dataDir, { recursive: true, force: true });
  });
  return world as BotWorld;
}
