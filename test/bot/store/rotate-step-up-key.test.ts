/**
 * `npm run store -- rotate-step-up-key` on the file store: every sealed secret (enrolled and pending)
 * opens with the new key afterwards and no longer with the old one, the enrolled approver's codes
 * keep counting, a second run changes nothing, and neither key is ever printed. A wrong old key, a
 * running bot or a missing key change nothing.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../../src/bot/domain/step-up/totp.js';
import { openSecret } from '../../../src/bot/domain/step-up/sealed-secret.js';
import type { StepUpState } from '../../../src/bot/domain/step-up/attempts.js';
import { createStepUps } from '../../../src/bot/slack/step-up/step-ups.js';
import { openKeyValueStore } from '../../../src/bot/store/kv.js';
import { memoryAuditLog } from '../../../src/bot/store/memory.js';
import { keyValueStepUpStore, STEP_UP_KV_NAME } from '../../../src/bot/store/step-up.js';
import { runStoreCli } from '../../../src/bot/store/store-cli.js';
import { tempDir } from './support/temp.js';
import { captureCliOutput } from './support/cli-output.js';

const ENROLLED = 'U0APP0001';
const PENDING = 'U0APP0002';
const LOCKED_ONLY = 'U0APP0003';
const T0 = Date.parse('2026-11-01T00:00:00Z');

const io = captureCliOutput;

const stepUpsOver = (dir: string, key: Uint8Array, now: number) =>
  openKeyValueStore({ dir, name: STEP_UP_KV_NAME }).then((kv) => ({
    kv,
    stepUps: createStepUps({
      store: keyValueStepUpStore(kv),
      key,
      clock: { now: () => now },
      audit: memoryAuditLog(),
      notices: { append: async () => {} },
      logger: { error: () => {} },
    }),
  }));

/** A data folder whose step-up.json the bot wrote under `oldKey`: one enrolled, one pending, one only locked out. */
async function desk(oldKey: Uint8Array): Promise<{ dir: string; secret: string }> {
  const dir = tempDir();
  const { kv, stepUps } = await stepUpsOver(dir, oldKey, T0);
  const { secret } = await stepUps.begin(ENROLLED, 'ana');
  expect(await stepUps.confirm(ENROLLED, totpCode(secret, T0), undefined)).toEqual({ ok: true });
  await stepUps.begin(PENDING, 'ben');
  await kv.set(LOCKED_ONLY, { lastStep: 0, wrong: 0, lockedUntil: T0 + 60_000 } satisfies StepUpState);
  await kv.close();
  return { dir, secret };
}

const states = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, `${STEP_UP_KV_NAME}.json`), 'utf8')) as { values: Record<string, StepUpState> })
    .values;

describe('npm run store -- rotate-step-up-key, on files', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('re-seals every secret with the new key (read from a file), keeps codes counting, prints no key, and a second run changes nothing', async () => {
    const { dir, secret } = await desk(oldKey);
    const before = states(dir);
    const keyFile = join(tempDir(), 'new-key');
    writeFileSync(keyFile, `${newKey.toString('base64')}\n`, { mode: 0o600 });
    const env = { STEP_UP_ENCRYPTION_KEY: oldKey.toString('hex'), STEP_UP_ENCRYPTION_KEY_NEW_FILE: keyFile };
    const t = io();
    expect(await runStoreCli(['rotate-step-up-key', '--data-dir', dir], t.io, env)).toBe(0);
    expect(t.out.join('')).toContain(
      `step-up secrets in ${join(dir, 'step-up.json')} now sealed with STEP_UP_ENCRYPTION_KEY_NEW\n` +
        '  users              3\n  secrets re-sealed  2\n  already new        0\n',
    );
    for (const k of [oldKey, newKey]) {
      expect(t.text()).not.toContain(k.toString('hex'));
      expect(t.text()).not.toContain(k.toString('base64'));
    }

    const after = states(dir);
    for (const [user, field] of [
      [ENROLLED, 'enrollment'],
      [PENDING, 'pending'],
    ] as const) {
      const sealed = after[user]![field]!.sealed;
      expect(sealed).not.toBe(before[user]![field]!.sealed);
      expect(openSecret(newKey, user, sealed)).toBe(openSecret(oldKey, user, before[user]![field]!.sealed));
      expect(() => openSecret(oldKey, user, sealed)).toThrow(/did not open/);
    }
    // Everything but the sealed values is as it was.
    expect({ ...after[ENROLLED], enrollment: undefined }).toEqual({ ...before[ENROLLED], enrollment: undefined });
    expect(after[LOCKED_ONLY]).toEqual(before[LOCKED_ONLY]);

    // The bot on the new key: the enrolled approver's next code counts.
    const later = T0 + 5 * 60_000;
    const { kv, stepUps } = await stepUpsOver(dir, newKey, later);
    expect(await stepUps.check(ENROLLED, totpCode(secret, later), 'R1')).toMatchObject({ kind: 'accepted' });
    await kv.close();

    const again = io();
    expect(await runStoreCli(['rotate-step-up-key', '--data-dir', dir], again.io, env)).toBe(0);
    expect(again.out.join('')).toContain('  secrets re-sealed  0\n  already new        2\n');
  });

  it('changes nothing when a secret opens with neither key, while the bot holds the store, or without both keys', async () => {
    const { dir } = await desk(oldKey);
    const file = join(dir, `${STEP_UP_KV_NAME}.json`);
    const bytes = readFileSync(file, 'utf8');

    const wrong = io();
    const wrongOld = randomBytes(32).toString('hex');
    const env = { STEP_UP_ENCRYPTION_KEY: wrongOld, STEP_UP_ENCRYPTION_KEY_NEW: newKey.toString('hex') };
    expect(await runStoreCli(['rotate-step-up-key', '--data-dir', dir], wrong.io, env)).toBe(1);
    expect(wrong.err.join('')).toMatch(
      new RegExp(
        `2 step-up secret\\(s\\) open with neither key: ${ENROLLED} \\(enrollment\\), ${PENDING} \\(pending\\)`,
      ),
    );
    expect(wrong.text()).not.toContain(wrongOld);
    expect(readFileSync(file, 'utf8')).toBe(bytes);

    const held = await openKeyValueStore({ dir, name: STEP_UP_KV_NAME });
    const locked = io();
    const good = { STEP_UP_ENCRYPTION_KEY: oldKey.toString('hex'), STEP_UP_ENCRYPTION_KEY_NEW: newKey.toString('hex') };
    expect(await runStoreCli(['rotate-step-up-key', '--data-dir', dir], locked.io, good)).toBe(2);
    expect(locked.err.join('')).toMatch(/lock/i);
    await held.close();
    expect(readFileSync(file, 'utf8')).toBe(bytes);

    const missing = io();
    expect(
      await runStoreCli(['rotate-step-up-key', '--data-dir', dir], missing.io, {
        STEP_UP_ENCRYPTION_KEY: oldKey.toString('hex'),
      }),
    ).toBe(2);
    expect(missing.err.join('')).toMatch(
      /STEP_UP_ENCRYPTION_KEY_NEW \(or STEP_UP_ENCRYPTION_KEY_NEW_FILE\) is not set/,
    );
    const same = io();
    expect(
      await runStoreCli(['rotate-step-up-key', '--data-dir', dir], same.io, {
        ...good,
        STEP_UP_ENCRYPTION_KEY_NEW: oldKey.toString('base64'),
      }),
    ).toBe(2);
    expect(same.err.join('')).toMatch(/is the same key as STEP_UP_ENCRYPTION_KEY/);
    const malformed = io();
    expect(
      await runStoreCli(['rotate-step-up-key', '--data-dir', dir], malformed.io, {
        ...good,
        STEP_UP_ENCRYPTION_KEY_NEW: 'not-a-key-at-all',
      }),
    ).toBe(2);
    expect(malformed.err.join('')).toMatch(/STEP_UP_ENCRYPTION_KEY_NEW must be 32 random bytes/);
    expect(malformed.text()).not.toContain('not-a-key-at-all');
    const typo = io();
    expect(await runStoreCli(['rotate-step-up-key', '--data-dir', join(dir, 'typo')], typo.io, good)).toBe(2);
    expect(typo.err.join('')).toMatch(/there is no step-up store here/);
    expect(readFileSync(file, 'utf8')).toBe(bytes);
  });
});
