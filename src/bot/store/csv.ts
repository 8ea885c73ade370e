/** CSV for people's spreadsheets: RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */

/** Characters that make Excel, LibreOffice or Sheets read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: a leading formula character gets a `'` in front; then quoted if it holds , " CR or LF. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows joined with CRLF, as RFC 4180 asks, ending with one. */
export function csvRows(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}
