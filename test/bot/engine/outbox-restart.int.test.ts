/**
 * A request saved while Slack could not be told, then the process stopped: its message is not
 * lost. The event was written with the request; the next start delivers it, once. And a request
 * whose outbox entry is gone (a data folder of an older version) still gets its message: every
 * open request's message is refreshed on start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import type { Notifier } from '../../../src/bot/ports/notifier.js';
import { FakeClock } from '../../support/fake-clock.js';
import { SequentialIds } from '../../support/sequential-ids.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { createLogger } from '../../../src/bot/runtime/logger.js';
import { openStores, type Stores } from '../../../src/bot/runtime/stores.js';
import { sandboxForEngine, type SandboxForEngine } from './support/sandbox-requests.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const clock = new FakeClock();
let sandbox: SandboxForEngine;
beforeAll(async () => {
  sandbox = await sandboxForEngine('outbox-restart', clock);
});
afterAll(async () => {
  await sandbox?.close();
});
const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });

async function life(dir: string, notifier: Notifier): Promise<{ engine: Engine; stores: Stores }> {
  const stores = await openStores(dir, clock, [], createLogger({ level: 'error', secrets: [], write: () => {} }));
  const engine = createEngine({
    exchange: sandbox.exchange,
    requests: stores.requests,
    kv: stores.kv,
    audit: stores.audit,
    notifier,
    clock,
    ids: new SequentialIds(),
    policy,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  await engine.start();
  return { engine, stores };
}

/** A life that makes one request and stops. */
async function firstLife(dir: string, notifier: Notifier): Promise<{ id: string }> {
  const first = await life(dir, notifier);
  const made = await first.engine.request('U_REQ', sandbox.cryptoInput());
  if (!made.ok) throw new Error('fixture');
  await first.engine.idle();
  await first.stores.close();
  return made.request;
}

describe('the outbox across a restart', () => {
  it('a request saved while Slack was down gets its message after the restart, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-restart-'));
    dirs.push(dir);
    const made = await firstLife(dir, { notify: () => Promise.reject(new Error('Slack is down')) });

    const seen: RequestEvent[] = [];
    const second = await life(dir, { notify: (event) => void seen.push(event) });
    await second.engine.idle();
    expect(seen.map((e) => [e.type, e.requestId])).toEqual([['request.created', made.id]]);
    await second.engine.tick();
    await second.engine.idle();
    expect(seen).toHaveLength(1);
    expect(await second.stores.requests.outbox.pending()).toEqual([]);
    await second.stores.close();
  });

  it('an open request with nothing in the outbox is refreshed on start: its message is posted if missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-restart-'));
    dirs.push(dir);
    await firstLife(dir, { notify: () => {} });
    const seen: RequestEvent[] = [];
    const second = await life(dir, { notify: (event) => void seen.push(event) });
    await second.engine.idle();
    expect(seen.map((e) => e.type)).toEqual(['message.refresh']);
    await second.stores.close();
  });
});
