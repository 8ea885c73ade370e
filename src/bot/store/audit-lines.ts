// Where the audit verifier and exporter read a chain: a file's lines or a table's rows, exactly as
// written and in chain order, so one verifier and one exporter serve every store.
import { scanLines } from './json-lines.js';

export interface AuditLine {
  /** The entry's JSON exactly as it was written (what its hash covers). */
  text: string;
  /** 1-based position in the chain as read. */
  lineNo: number;
  /** How an operator finds it: "line 3" in a file, "the row with seq 3" in a table. */
  label: string;
}

export interface AuditLines {
  /** What is being read, for messages: a file path, or the table and database (never a password). */
  readonly where: string;
  /** Every line in chain order; `incompleteTail` reports bytes after the last newline (files only). */
  scan(visit: (line: AuditLine) => void): Promise<{ incompleteTail: boolean }>;
}

export function fileAuditLines(file: string): AuditLines {
  return {
    where: file,
    async scan(visit) {
      const result = await scanLines(file, (line) =>
        visit({ text: line.text, lineNo: line.lineNo, label: `line ${line.lineNo}` }),
      );
      return { incompleteTail: result.size > result.completeEnd };
    },
  };
}
