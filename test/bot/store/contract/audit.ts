/**
 * What the audit log promises, on files and PostgreSQL alike: one hash chain in the format of
 * audit-entry.ts, verified and exported through the same code, and any change, removal or
 * reordering behind the store's back caught by verify.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashOfLine } from '../../../../src/bot/store/audit-entry.js';
import { exportAudit } from '../../../../src/bot/store/audit-export.js';
import { verifyAudit } from '../../../../src/bot/store/audit-verify.js';
import type { AuditLine } from '../../../../src/bot/store/audit-lines.js';
import type { Place, StoreKind } from './kinds.js';

const START = Date.parse('2025-03-01T12:00:00.000Z');

/** A clock that moves one minute per reading. */
function steppingClock() {
  let t = START;
  return () => (t += 60_000) - 60_000;
}

export function auditContract(kind: StoreKind): void {
  let place: Place;
  afterEach(async () => {
    await place?.close();
  });
  const written = async (n: number) => {
    place = await kind.place();
    const log = await place.audit({ now: steppingClock() });
    for (let i = 1; i <= n; i++)
      await log.append({ type: 'approval.counted', actor: `U${i}`, requestId: 'R1', data: { i } });
    return log;
  };
  const lines = async () => {
    const out: AuditLine[] = [];
    await place.auditLines().scan((line) => out.push(line));
    return out.map((l) => JSON.parse(l.text) as Record<string, unknown>);
  };

  describe(`AuditLog contract: ${kind.name}`, () => {
    it('chains one entry per append in the shared format, stamped by the injected clock, and verifies', async () => {
      await written(3);
      const entries = await lines();
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(entries[0]).toEqual({
        seq: 1,
        ts: '2025-03-01T12:00:00.000Z',
        type: 'approval.counted',
        actor: 'U1',
        requestId: 'R1',
        data: { i: 1 },
        prev: GENESIS_HASH,
        hash: expect.any(String),
      });
      expect(entries[1]!.prev).toBe(entries[0]!.hash);
      for (const e of entries) expect(e.hash).toBe(hashOfLine(e));
      expect(await verifyAudit(place.auditLines())).toEqual({ ok: true, entries: 3, lastHash: entries[2]!.hash });
    });

    it('chains 50 concurrent appends in call order', async () => {
      const log = await written(0);
      await Promise.all(Array.from({ length: 50 }, (_, i) => log.append({ type: 't', actor: 'system', data: { i } })));
      expect((await lines()).map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(await verifyAudit(place.auditLines())).toMatchObject({ ok: true, entries: 50 });
    });

    it('continues the chain after a close and an open', async () => {
      const log = await written(2);
      await log.close();
      const again = await place.audit();
      await again.append({ type: 'request.created', actor: 'system' });
      expect(await verifyAudit(place.auditLines())).toMatchObject({ ok: true, entries: 3 });
    });

    it('redacts secrets and secret shapes, and refuses a bad entry without breaking the chain', async () => {
      place = await kind.place();
      const log = await place.audit({ redact: ['db-password-0123'] });
      await log.append({
        type: 'config.loaded',
        actor: 'system',
        data: { url: 'postgres://desk:db-password-0123@db/desk', token: 'xoxb-1234567890-abcdefghij' },
      });
      await expect(log.append({ type: '', actor: 'system' })).rejects.toThrow(/type must be a non-empty string/);
      await log.append({ type: 'after', actor: 'system' });
      const [first] = await lines();
      expect(first!.data).toEqual({ url: 'postgres://desk:[redacted]@db/desk', token: '[redacted]' });
      expect(await verifyAudit(place.auditLines())).toMatchObject({ ok: true, entries: 2 });
    });

    it('exports the CSV of a time range from the same lines', async () => {
      await written(5);
      const csv = await exportAudit(place.auditLines(), { from: '2025-03-01T12:01:00Z', to: '2025-03-01T12:03:00Z' });
      expect(
        csv
          .trimEnd()
          .split('\r\n')
          .map((row) => row.split(',')[3]),
      ).toEqual(['actor', 'U2', 'U3']);
    });

    it("verify catches an entry changed behind the store's back, naming where", async () => {
      await written(4);
      await place.editAuditLine(2, (line) => line.replace('"actor":"U2"', '"actor":"U9"'));
      expect(await verifyAudit(place.auditLines())).toMatchObject({
        ok: false,
        entries: 1,
        firstBadLine: 2,
        firstBadAt: expect.stringMatching(/line 2|seq 2/),
        reason: expect.stringMatching(/was changed/),
      });
    });

    it('verify catches an entry rehashed after a change (the next one no longer follows it)', async () => {
      await written(4);
      await place.editAuditLine(2, (line) => {
        const entry = { ...(JSON.parse(line) as Record<string, unknown>), actor: 'U9' };
        return JSON.stringify({ ...entry, hash: hashOfLine(entry) });
      });
      expect(await verifyAudit(place.auditLines())).toMatchObject({
        ok: false,
        entries: 2,
        firstBadLine: 3,
        reason: expect.stringMatching(/prev does not match/),
      });
    });

    it('verify catches a removed entry', async () => {
      await written(4);
      await place.removeAuditLine(2);
      expect(await verifyAudit(place.auditLines())).toMatchObject({
        ok: false,
        entries: 1,
        firstBadLine: 2,
        reason: expect.stringMatching(/seq 3 where 2/),
      });
    });
  });
}
