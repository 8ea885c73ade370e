// Operator tool: `npm run audit -- verify|export [--from ISO] [--to ISO] [--out file] [--file path | --database-url URL]`.
// Reads the file or database the bot would (data-layout.ts, database-target.ts), read-only, URL never printed.
// Exit 0 fine, 1 the chain does not verify (export still writes, with a warning), 2 usage or I/O error.
import { existsSync, writeFileSync } from 'node:fs';
import { parseCommandLine, type CliIo } from './cli-args.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileAuditLines, type AuditLines } from './audit-lines.js';
import { DATABASE_TARGET_HELP, databaseTarget } from './database-target.js';
import { AUDIT_FILE_NAME } from './audit-log.js';
import { toolDataDirOf } from './data-layout.js';
import { exportAudit } from './audit-export.js';
import { verifyAudit, type AuditVerifyResult } from './audit-verify.js';
import { pgAuditLines } from './postgres/audit-lines.js';
import { describeDatabase } from './postgres/database.js';
import { createPool } from './postgres/pool.js';

const USAGE =
  'usage: npm run audit -- verify [--file path | --database-url postgres://user@host:5432/database]\n' +
  '       npm run audit -- export [--from ISO] [--to ISO] [--out file] [--file path | --database-url …]\n' +
  'The log: --file, else the database, else audit.jsonl in DATA_DIR (default ./data, or ./data/preview after a local preview).\n' +
  DATABASE_TARGET_HELP;

/** The one place this tool reads the environment: a tool run beside the bot must not need the bot's whole configuration valid. */
export function defaultAuditFile(env: NodeJS.ProcessEnv = process.env, exists?: (path: string) => boolean): string {
  return join(toolDataDirOf(env, exists), AUDIT_FILE_NAME);
}

/** Runs the tool on `argv` (without node and script) and returns the exit code. */
export async function runAuditCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      file: { type: 'string' },
      'database-url': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
    },
    USAGE,
    io,
  );
  if ('exit' in parsed) return parsed.exit;
  const [command, ...extra] = parsed.positionals;
  if (
    extra.length > 0 ||
    (command !== 'verify' && command !== 'export') ||
    (parsed.values.file && parsed.values['database-url'])
  ) {
    io.err(USAGE);
    return 2;
  }
  const target = parsed.values.file
    ? undefined
    : databaseTarget({ name: '--database-url', value: parsed.values['database-url'] }, env);
  if (target !== undefined && 'problem' in target) {
    io.err(target.problem);
    return 2;
  }
  const opened = openSource(parsed.values.file, target?.url, env);
  if (typeof opened === 'string') {
    io.err(opened);
    return 2;
  }
  const { source } = opened;
  try {
    const result = await verifyAudit(source);
    if (command === 'verify') {
      if (result.ok) io.out(`${source.where}: ok, ${result.entries} entries, last hash ${result.lastHash}\n`);
      else io.err(describeFailure(source.where, result));
      if (result.incompleteLastLine)
        io.err(`${source.where}: the last line is incomplete (an append a crash interrupted); ignored\n`);
      return result.ok ? 0 : 1;
    }
    const csv = await exportAudit(source, { from: parsed.values.from, to: parsed.values.to });
    if (parsed.values.out) writeFileSync(parsed.values.out, csv, { mode: 0o600 });
    else io.out(csv);
    if (!result.ok) io.err(`warning: exported anyway, but ${describeFailure(source.where, result)}`);
    return result.ok ? 0 : 1;
  } catch (err) {
    io.err(`${source.where}: ${(err as Error).message}\n`);
    return 2;
  } finally {
    await opened.close();
  }
}

/** The audit lines to read, or why there are none. */
function openSource(
  file: string | undefined,
  url: string | undefined,
  env: NodeJS.ProcessEnv,
): { source: AuditLines; close: () => Promise<void> } | string {
  if (url !== undefined) {
    const pool = createPool({ url, warn: () => {}, max: 1 });
    return { source: pgAuditLines(pool, describeDatabase(url)), close: () => pool.end() };
  }
  const path = file ?? defaultAuditFile(env);
  if (!existsSync(path))
    return `no audit log at ${path} (set DATA_DIR or DATABASE_URL, or pass --file or --database-url)\n`;
  return { source: fileAuditLines(path), close: async () => {} };
}

function describeFailure(where: string, result: AuditVerifyResult): string {
  return `${where}: verification FAILED at ${result.firstBadAt}: ${result.reason} (${result.entries} entries verified before it)\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runAuditCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
