/**
 * Operator tool for the audit log.
 *   npm run audit -- verify [--file path]
 *   npm run audit -- export [--from ISO] [--to ISO] [--out file] [--file path]
 * Default file: $DATA_DIR/audit.jsonl (DATA_DIR defaults to ./data). Exit codes: 0 fine,
 * 1 the chain does not verify (export still writes its CSV, with a warning), 2 usage or I/O error.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AUDIT_FILE_NAME } from './audit-log.js';
import { exportAuditCsv } from './audit-export.js';
import { verifyAuditLog, type AuditVerifyResult } from './audit-verify.js';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE =
  'usage: npm run audit -- verify [--file path]\n' +
  '       npm run audit -- export [--from ISO] [--to ISO] [--out file] [--file path]\n';

/**
 * The one place this tool reads the environment (config/ is the bot's reader; an operator tool
 * run beside it should not need the bot's whole configuration to be valid).
 */
export function defaultAuditFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.DATA_DIR || './data', AUDIT_FILE_NAME);
}

/** Runs the tool on `argv` (without node and script) and returns the exit code. */
export async function runAuditCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { file: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...extra] = parsed.positionals;
  const file = parsed.values.file ?? defaultAuditFile(env);
  if (extra.length > 0 || (command !== 'verify' && command !== 'export')) {
    io.err(USAGE);
    return 2;
  }
  if (!existsSync(file)) {
    io.err(`no audit log at ${file} (set DATA_DIR or pass --file)\n`);
    return 2;
  }
  try {
    const result = await verifyAuditLog(file);
    if (command === 'verify') {
      if (result.ok) io.out(`${file}: ok, ${result.entries} entries, last hash ${result.lastHash}\n`);
      else io.err(describeFailure(file, result));
      if (result.incompleteLastLine) io.err(`${file}: the last line is incomplete (an append a crash interrupted); ignored\n`);
      return result.ok ? 0 : 1;
    }
    const csv = await exportAuditCsv(file, { from: parsed.values.from, to: parsed.values.to });
    if (parsed.values.out) writeFileSync(parsed.values.out, csv, { mode: 0o600 });
    else io.out(csv);
    if (!result.ok) io.err(`warning: exported anyway, but ${describeFailure(file, result)}`);
    return result.ok ? 0 : 1;
  } catch (err) {
    io.err(`${(err as Error).message}\n`);
    return 2;
  }
}

function describeFailure(file: string, result: AuditVerifyResult): string {
  return `${file}: verification FAILED at line ${result.firstBadLine}: ${result.reason} (${result.entries} lines verified before it)\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runAuditCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
