/** The audit chain in the `audit_log` table, read for verify and export (audit-lines.ts), a page at a time. */
import type { Pool } from 'pg';
import type { AuditLines } from '../audit-lines.js';
import { idempotent } from './pool.js';

const PAGE = 1_000;

/** The rows of audit_log in seq order, each as the line it holds. */
export function pgAuditLines(pool: Pool, where: string): AuditLines {
  return {
    where: `${where}, table audit_log`,
    async scan(visit) {
      let after = '0';
      let lineNo = 0;
      for (;;) {
        const rows = await idempotent<{ seq: string; line: string }>(
          pool,
          'SELECT seq, line FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2',
          [after, PAGE],
        );
        for (const row of rows) visit({ text: row.line, lineNo: ++lineNo, label: `the row with seq ${row.seq}` });
        if (rows.length < PAGE) return { incompleteTail: false };
        after = rows[rows.length - 1]!.seq;
      }
    },
  };
}
