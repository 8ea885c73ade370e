/**
 * The periodic message refresh: one at a time. A refresh slowed by Slack (rate limits, an outage)
 * can outlast its ten minutes; the next tick must not start a second pass over the same messages.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createEngine } from '../../../../src/bot/engine/engine.js';
import type { RequestEvent } from '../../../../src/bot/ports/events.js';
import type { Notifier } from '../../../../src/bot/ports/notifier.js';
import { REFRESH_EVERY_MS } from '../../../../src/bot/engine/notices/refresh-messages.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { SequentialIds } from '../../../support/sequential-ids.js';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { isFinishedRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../../../src/bot/store/memory.js';
import { sandboxForEngine } from '../support/sandbox-requests.js';

describe('the message refresh', () => {
  it('a refresh still running when the next is due is not doubled', async () => {
    const clock = new FakeClock();
    const sandbox = await sandboxForEngine('refresh-messages', clock);
    onTestFinished(() => sandbox.close());
    const refreshed: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    // Slack answers a refresh only when the test says so; events go through at once.
    const notifier: Notifier = {
      notify: (event: RequestEvent) => {
        if (event.type !== 'message.refresh') return;
        refreshed.push(event.requestId);
        return slow;
      },
    };
    const engine = createEngine({
      exchange: sandbox.exchange,
      requests: memoryRepository<RequestRecord>(isFinishedRequest),
      kv: memoryKv(),
      audit: memoryAuditLog({ clock }),
      notifier,
      clock,
      ids: new SequentialIds(),
      policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] }),
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await engine.start();
    const made = await engine.request('U_REQ', sandbox.cryptoInput());
    if (!made.ok) throw new Error('fixture');
    await engine.idle();

    clock.advance(REFRESH_EVERY_MS);
    await engine.tick();
    await vi.waitFor(() => expect(refreshed).toEqual([made.request.id]));
    clock.advance(REFRESH_EVERY_MS);
    await engine.tick();
    // A second pass would have reached the request by now: a few store reads, no timers.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refreshed).toEqual([made.request.id]);

    release();
    await engine.idle();
    // Once the slow one is over, the next is due again at its time.
    clock.advance(REFRESH_EVERY_MS);
    await engine.tick();
    await engine.idle();
    expect(refreshed).toEqual([made.request.id, made.request.id]);
  });
});
