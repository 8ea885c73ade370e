// Operator tool: `npm run store -- copy [--to postgres://user@host/db] [--from DATA_DIR]` copies a stopped
// file store into an empty database and verifies the chain read back. URL never printed. Exit 0 copied
// and verified, 1 chain mismatch (do not start on it), 2 usage error or nothing copied.
import { pathToFileURL } from 'node:url';
import { parseCommandLine, type CliIo } from './cli-args.js';
import { REQUEST_RECORD_SCHEMA, REQUEST_STORE_NAME, REQUEST_RECORD_VERSION } from '../domain/record-schema.js';
import { isFinishedRequest } from '../domain/record.js';
import { toolDataDirOf } from './data-layout.js';
import { copyFileStoreToPostgres, CopyVerificationError, type CopyCounts } from './postgres/copy-from-files.js';
import { describeDatabase } from './postgres/database.js';
import { DATABASE_TARGET_HELP, databaseTarget } from './database-target.js';

const USAGE =
  'usage: npm run store -- copy [--to postgres://user@host:5432/database] [--from DATA_DIR]\n' + DATABASE_TARGET_HELP;

/** Runs the tool on `argv` (without node and script) and returns the exit code. */
export async function runStoreCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandLine(argv, { to: { type: 'string' }, from: { type: 'string' } }, USAGE, io);
  if ('exit' in parsed) return parsed.exit;
  const [command, ...extra] = parsed.positionals;
  if (command !== 'copy' || extra.length > 0) {
    io.err(USAGE);
    return 2;
  }
  const target = databaseTarget({ name: '--to', value: parsed.values.to }, env);
  if (target === undefined || 'problem' in target) {
    io.err(target?.problem ?? `no target database: set DATABASE_URL (or DATABASE_URL_FILE), or pass --to\n${USAGE}`);
    return 2;
  }
  const url = target.url;
  const from = parsed.values.from ?? toolDataDirOf(env);
  const warnings: string[] = [];
  try {
    const counts = await copyFileStoreToPostgres(
      {
        dataDir: from,
        repository: {
          name: REQUEST_STORE_NAME,
          schema: REQUEST_RECORD_SCHEMA,
          isFinished: isFinishedRequest,
          version: REQUEST_RECORD_VERSION,
        },
      },
      url,
      (m) => warnings.push(m),
    );
    for (const w of warnings) io.err(`note: ${w}\n`);
    io.out(summary(from, counts));
    return 0;
  } catch (err) {
    for (const w of warnings) io.err(`note: ${w}\n`);
    io.err(`copy of ${from} into ${describeDatabase(url)}: ${(err as Error).message}\n`);
    return err instanceof CopyVerificationError ? 1 : 2;
  }
}

function summary(from: string, c: CopyCounts): string {
  return (
    `copied ${from} into ${c.where}\n` +
    `  live requests      ${c.live}\n` +
    `  finished requests  ${c.history} (${c.historyLines} history lines)\n` +
    `  outbox entries     ${c.outbox}\n` +
    `  key-value entries  ${c.kv}\n` +
    `  step-up states     ${c.stepUp} (${c.enrolled} enrolled), verified in the database\n` +
    `  audit entries      ${c.audit}, chain verified in the database, last hash ${c.lastHash}\n`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runStoreCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
