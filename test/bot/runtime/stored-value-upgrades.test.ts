/** Stored deposits in the exchange's shape (watch state v1, deposit message references) brought to the port's records at start. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWatchState, WATCH_STATE_KEY } from '../../../src/bot/engine/compliance/watch-state.js';
import { upgradeStoredValues } from '../../../src/bot/runtime/stored-value-upgrades.js';
import { depositMessageKey } from '../../../src/bot/slack/compliance/deposit-notifier.js';
import { submissionKey } from '../../../src/bot/slack/request-forms/submission-markers.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../../../src/bot/store/kv.js';

const TX = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
/** A deposit as the exchange lists it, as version 1 stored it. */
const wire = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  to_address: 'bc1qdesk',
  amount: '1.5',
  created_at: 1_764_000_000_000,
  status: 'pending',
  travel_rule_status: 'required',
  invoice_downloadable: false,
  transaction: { uuid: TX },
  crypto_currency: { id: 1, name: 'Bitcoin', code: 'BTC' },
};

let dir: string;
let kv: DurableKeyValueStore;
const logs: string[] = [];
const log = { info: (message: string) => void logs.push(message) };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  kv = await openKeyValueStore({ dir });
  logs.length = 0;
});
afterEach(async () => {
  await kv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrateStoredValues', () => {
  it('turns a version 1 watch state into version 3, every deposit and change in the port terms, its notices kept without attempts, and leaves it alone after', async () => {
    await kv.set(WATCH_STATE_KEY, {
      version: 1,
      after: 5,
      seen: { [wire.id]: wire.created_at },
      ceiling: null,
      tracked: { [wire.id]: { deposit: wire, firstSeenAt: 7 } },
      refreshCeiling: null,
      outbox: [
        { kind: 'seen', deposit: wire, attempts: 2 },
        {
          kind: 'changed',
          deposit: { ...wire, travel_rule_status: 'submitted' },
          changes: { travel_rule_status: { from: 'required', to: 'submitted' } },
          attempts: 0,
        },
      ],
    });
    await upgradeStoredValues(kv, log);
    const state = (await loadWatchState(kv))!;
    expect(state.version).toBe(3);
    expect(state.tracked[wire.id]).toEqual({
      firstSeenAt: 7,
      deposit: {
        id: wire.id,
        transactionId: TX,
        createdAt: wire.created_at,
        status: 'pending',
        travelRuleStatus: 'required',
        amount: '1.5',
        currency: { code: 'BTC', name: 'Bitcoin' },
        toAddress: 'bc1qdesk',
        transactionHash: null,
        linkExplorer: null,
        final: false,
        needsDeclaration: true,
        acceptsDeclaration: true,
        reviewOpen: true,
      },
    });
    expect(state.outbox.map((e) => e.kind)).toEqual(['seen', 'changed']);
    expect(state.outbox.every((e) => !('attempts' in e))).toBe(true);
    expect(state.outbox[1]).toMatchObject({
      kind: 'changed',
      changes: { travelRuleStatus: { from: 'required', to: 'submitted' } },
      deposit: { travelRuleStatus: 'submitted', acceptsDeclaration: false },
    });
    expect(logs).toHaveLength(1);

    await upgradeStoredValues(kv, log);
    expect(await loadWatchState(kv)).toEqual(state);
    expect(logs).toHaveLength(1);
  });

  it('turns each deposit message reference holding an exchange body into one holding the record, keeping the rest', async () => {
    await kv.set(depositMessageKey(TX), {
      channel: 'C2',
      ts: '1764000000.000100',
      deposit: wire,
      declaration: { userId: 'U0CMP0001', at: 1 },
    });
    await upgradeStoredValues(kv, log);
    const ref = await kv.get<Record<string, unknown>>(depositMessageKey(TX));
    expect(ref).toMatchObject({
      channel: 'C2',
      ts: '1764000000.000100',
      declaration: { userId: 'U0CMP0001', at: 1 },
      deposit: { transactionId: TX, needsDeclaration: true },
    });
    await upgradeStoredValues(kv, log);
    expect(await kv.get(depositMessageKey(TX))).toEqual(ref);
  });

  it('a stored exchange body that no longer parses stops the start with the reason, and is left as it was', async () => {
    await kv.set(depositMessageKey(TX), { channel: 'C2', ts: '1.2', deposit: { id: 'x' } });
    await expect(upgradeStoredValues(kv, log)).rejects.toThrow(/created_at|status|transaction/);
    expect(await kv.get(depositMessageKey(TX))).toEqual({ channel: 'C2', ts: '1.2', deposit: { id: 'x' } });
  });

  it("frees form tokens an older version left `refused`, and keeps created ones, running claims and refused claims' answers", async () => {
    const answer = `${submissionKey('V2')}:refused:c1`;
    await kv.set(submissionKey('V1'), { state: 'refused', at: 1 });
    await kv.set(submissionKey('V2'), { state: 'created', requestId: 'R2', at: 1 });
    await kv.set(submissionKey('V3'), { state: 'started', claim: 'c3', at: 1 });
    await kv.set(answer, { state: 'refused', refusal: { ok: false, reason: 'invalid_input', message: 'no' }, at: 1 });
    await upgradeStoredValues(kv, log);
    expect(await kv.get(submissionKey('V1'))).toBeUndefined();
    expect((await kv.keys('slack:submission:')).sort()).toEqual(
      [submissionKey('V2'), answer, submissionKey('V3')].sort(),
    );
    expect(logs).toEqual([expect.stringContaining('freed')]);
  });
});
