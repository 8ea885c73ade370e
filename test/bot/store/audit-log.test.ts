import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/bot/exchange/secret.js';
import { GENESIS_HASH, hashOfLine } from '../../../src/bot/store/audit-entry.js';
import { openAuditLog, verifyAuditLog } from '../../../src/bot/store/audit-log.js';
import { StoreCorruptError } from '../../../src/bot/store/errors.js';
import { memoryAuditLog } from '../../../src/bot/store/memory.js';
import { tempDir } from './support/temp.js';

const START = Date.parse('2025-03-01T12:00:00.000Z');

/** A clock that moves one second per reading. */
function steppingClock() {
  let t = START;
  return { now: () => (t += 1000) - 1000 };
}

async function writeLog(n: number) {
  const file = join(tempDir(), 'audit.jsonl');
  const log = await openAuditLog({ file, clock: steppingClock() });
  for (let i = 1; i <= n; i++)
    await log.append({ type: 'approval.counted', actor: `U${i}`, requestId: 'R1', data: { i } });
  await log.close();
  return file;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const writeLines = (file: string, ls: string[]) => writeFileSync(file, ls.join('\n') + '\n');

describe('openAuditLog: the chain', () => {
  it('writes one hash-chained JSON line per append, stamped by the injected clock', async () => {
    const file = await writeLog(3);
    const entries = lines(file).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(entries[0]).toMatchObject({
      ts: '2025-03-01T12:00:00.000Z',
      type: 'approval.counted',
      actor: 'U1',
      requestId: 'R1',
      data: { i: 1 },
    });
    expect(entries[0]!.prev).toBe(GENESIS_HASH);
    expect(entries[1]!.prev).toBe(entries[0]!.hash);
    expect(entries[2]!.prev).toBe(entries[1]!.hash);
    for (const e of entries) expect(e.hash).toBe(hashOfLine(e));
    expect(await verifyAuditLog(file)).toEqual({ ok: true, entries: 3, lastHash: entries[2]!.hash });
  });

  it('continues the chain after a reopen', async () => {
    const file = await writeLog(2);
    const log = await openAuditLog({ file, clock: steppingClock() });
    expect(log.head.seq).toBe(2);
    await log.append({ type: 'request.created', actor: 'system' });
    await log.close();
    expect(await verifyAuditLog(file)).toMatchObject({ ok: true, entries: 3 });
  });

  it('concurrent appends are all written, chained in call order', async () => {
    const file = join(tempDir(), 'audit.jsonl');
    const log = await openAuditLog({ file, clock: steppingClock() });
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append({ type: 't', actor: 'system', data: { i } })));
    await log.close();
    expect(lines(file).map((l) => (JSON.parse(l) as { data: { i: number } }).data.i)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(await verifyAuditLog(file)).toMatchObject({ ok: true, entries: 50 });
  });

  it('refuses a malformed entry without breaking the chain', async () => {
    const file = join(tempDir(), 'audit.jsonl');
    const log = await openAuditLog({ file, clock: steppingClock() });
    await expect(log.append({ type: '', actor: 'x' })).rejects.toThrow(/type/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(log.append({ type: 't', actor: 'x', data: cyclic })).rejects.toThrow();
    await log.append({ type: 't', actor: 'x', data: { big: 10n ** 30n, at: new Date(0), gone: undefined } });
    await log.close();
    expect(JSON.parse(lines(file)[0]!).data).toEqual({
      big: '1000000000000000000000000000000',
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(await verifyAuditLog(file)).toMatchObject({ ok: true, entries: 1 });
  });
});

describe('verifyAuditLog: tampering', () => {
  it('detects a changed line (content edited, hash left)', async () => {
    const file = await writeLog(5);
    const ls = lines(file);
    ls[2] = ls[2]!.replace('"actor":"U3"', '"actor":"U9"');
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({
      ok: false,
      entries: 2,
      firstBadLine: 3,
      reason: expect.stringMatching(/was changed/),
    });
  });

  it('detects a changed line whose hash was recomputed, at the next line', async () => {
    const file = await writeLog(5);
    const ls = lines(file);
    const e = JSON.parse(ls[2]!) as Record<string, unknown>;
    e.actor = 'U9';
    e.hash = hashOfLine(e);
    ls[2] = JSON.stringify(e);
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({
      ok: false,
      firstBadLine: 4,
      reason: expect.stringMatching(/prev does not match/),
    });
  });

  it('detects a member added to a line', async () => {
    const file = await writeLog(3);
    const ls = lines(file);
    ls[1] = ls[1]!.replace('{', '{"approvedBy":"U7",');
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, firstBadLine: 2 });
  });

  it('detects a removed line', async () => {
    const file = await writeLog(5);
    const ls = lines(file);
    ls.splice(1, 1);
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({
      ok: false,
      entries: 1,
      firstBadLine: 2,
      reason: expect.stringMatching(/seq 3 where 2/),
    });
  });

  it('detects an inserted line (a copy of a genuine one)', async () => {
    const file = await writeLog(4);
    const ls = lines(file);
    ls.splice(2, 0, ls[0]!);
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, firstBadLine: 3 });
  });

  it('detects two lines swapped', async () => {
    const file = await writeLog(4);
    const ls = lines(file);
    [ls[1], ls[2]] = [ls[2]!, ls[1]!];
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({ ok: false, firstBadLine: 2 });
  });

  it('detects a line that is not JSON', async () => {
    const file = await writeLog(3);
    const ls = lines(file);
    ls[1] = ls[1]!.slice(0, -1);
    writeLines(file, ls);
    expect(await verifyAuditLog(file)).toMatchObject({
      ok: false,
      firstBadLine: 2,
      reason: expect.stringMatching(/not valid JSON/),
    });
  });
});

describe('openAuditLog: crashes and damage', () => {
  it('cuts off an incomplete last line on open (verify reports it), keeping a copy', async () => {
    const file = await writeLog(2);
    appendFileSync(file, '{"seq":3,"ts":"2025-');
    expect(await verifyAuditLog(file)).toMatchObject({ ok: true, entries: 2, incompleteLastLine: true });
    const warnings: string[] = [];
    const log = await openAuditLog({ file, clock: steppingClock(), warn: (m) => warnings.push(m) });
    await log.append({ type: 't', actor: 'system' });
    await log.close();
    expect(warnings.join()).toMatch(/incomplete last line of 20 bytes/);
    expect(readdirSync(join(file, '..')).some((f) => f.startsWith('audit.jsonl.torn-'))).toBe(true);
    expect(await verifyAuditLog(file)).toEqual({ ok: true, entries: 3, lastHash: expect.any(String) });
  });

  it('refuses to append to a log whose last line is damaged, leaving it untouched', async () => {
    const file = await writeLog(2);
    const ls = lines(file);
    ls[1] = ls[1]!.replace('"U2"', '"U3"');
    writeLines(file, ls);
    const before = readFileSync(file);
    await expect(openAuditLog({ file, clock: steppingClock() })).rejects.toBeInstanceOf(StoreCorruptError);
    await expect(openAuditLog({ file, clock: steppingClock() })).rejects.toThrow(
      /hash does not match.*npm run audit -- verify/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('one writer per file', async () => {
    const file = join(tempDir(), 'audit.jsonl');
    const log = await openAuditLog({ file, clock: steppingClock() });
    await expect(openAuditLog({ file, clock: steppingClock() })).rejects.toThrow(/already open/);
    await log.close();
  });
});

describe('openAuditLog: redaction', () => {
  const KEY = 'ab'.repeat(32);
  const TOKEN = 'xoxb-1234567890-abcdefghij';

  it('replaces known secrets (any case, keys too) and secret-shaped values before hashing', async () => {
    const file = join(tempDir(), 'audit.jsonl');
    const log = await openAuditLog({
      file,
      clock: steppingClock(),
      redact: [KEY, new Secret('signing-secret-123'), ''],
    });
    await log.append({
      type: 'exchange.answer',
      actor: 'system',
      data: {
        error: `bad key ${KEY.toUpperCase()}`,
        [KEY]: 1,
        nested: ['signing-secret-123', { header: `Bearer ${TOKEN}` }],
        other: 'xoxp-99999999-abc123def4 and xapp-1-A0B1C2D3E4-55',
        pem: '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----',
        secret: new Secret('never'),
      },
    });
    await log.close();
    const text = readFileSync(file, 'utf8');
    for (const s of [KEY, KEY.toUpperCase(), 'signing-secret-123', TOKEN, 'xoxp-', 'xapp-', 'MHcCAQEE', 'never'])
      expect(text).not.toContain(s);
    expect(JSON.parse(text).data).toEqual({
      error: 'bad key [redacted]',
      '[redacted]': 1,
      nested: ['[redacted]', { header: 'Bearer [redacted]' }],
      other: '[redacted] and [redacted]',
      pem: '[redacted]',
      secret: '[redacted]',
    });
    expect(await verifyAuditLog(file)).toMatchObject({ ok: true });
  });

  it('refuses a "secret" so short it would redact ordinary words', async () => {
    await expect(
      openAuditLog({ file: join(tempDir(), 'a.jsonl'), clock: steppingClock(), redact: ['abc'] }),
    ).rejects.toThrow(/shorter than 8/);
  });
});

describe('memoryAuditLog', () => {
  it('records entries in call order as the file would keep them', async () => {
    const log = memoryAuditLog({ clock: steppingClock() });
    await Promise.all([
      log.append({ type: 'a', actor: 'U1', data: { s: new Secret('x'), u: undefined } }),
      log.append({ type: 'b', actor: 'U2' }),
    ]);
    expect(log.entries).toEqual([
      { seq: 1, ts: '2025-03-01T12:00:00.000Z', type: 'a', actor: 'U1', data: { s: '[redacted]' } },
      { seq: 2, ts: '2025-03-01T12:00:01.000Z', type: 'b', actor: 'U2' },
    ]);
  });
});
