// Operator tool: `npm run store -- copy [--to postgres://user@host/db] [--from DATA_DIR]` copies a stopped
// file store into an empty database and verifies the chain read back. URL never printed. Exit 0 copied
// and verified, 1 chain mismatch (do not start on it), 2 usage error or nothing copied.
// `npm run store -- rotate-step-up-key [--data-dir DIR | --database-url URL]` re-seals every step-up
// secret of a stopped store from STEP_UP_ENCRYPTION_KEY to STEP_UP_ENCRYPTION_KEY_NEW (keys never
// printed). Exit 0 done, 1 a secret opens with neither key (nothing changed), 2 usage or nothing changed.
import { pathToFileURL } from 'node:url';
import { parseCommandLine, type CliIo } from './cli-args.js';
import { REQUEST_RECORD_SCHEMA, REQUEST_STORE_NAME, REQUEST_RECORD_VERSION } from '../domain/record-schema.js';
import { isFinishedRequest } from '../domain/record.js';
import { toolDataDirOf } from './data-layout.js';
import { copyFileStoreToPostgres, CopyVerificationError, type CopyCounts } from './postgres/copy-from-files.js';
import { describeDatabase } from './postgres/database.js';
import { DATABASE_TARGET_HELP, databaseTarget } from './database-target.js';
import { NEW_KEY_VARIABLE, OLD_KEY_VARIABLE, stepUpKeysOf } from './step-up-keys.js';
import { rekeyFileStepUp, RekeyRefusedError, type RekeyCounts } from './step-up-rekey.js';
import { rekeyPgStepUp } from './postgres/step-up-rekey.js';

const USAGE =
  'usage: npm run store -- copy [--to postgres://user@host:5432/database] [--from DATA_DIR]\n' +
  '       npm run store -- rotate-step-up-key [--data-dir DATA_DIR | --database-url postgres://user@host:5432/database]\n' +
  `rotate-step-up-key: the bot stopped (every replica), re-seals each step-up secret from ${OLD_KEY_VARIABLE} to ${NEW_KEY_VARIABLE}\n` +
  '(each also as <NAME>_FILE); the store: --data-dir, else the database, else DATA_DIR (default ./data).\n' +
  DATABASE_TARGET_HELP;

/** Runs the tool on `argv` (without node and script) and returns the exit code. */
export async function runStoreCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      to: { type: 'string' },
      from: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
    },
    USAGE,
    io,
  );
  if ('exit' in parsed) return parsed.exit;
  const [command, ...extra] = parsed.positionals;
  const v = parsed.values;
  const copyFlags = v.to !== undefined || v.from !== undefined;
  const rotateFlags = v['data-dir'] !== undefined || v['database-url'] !== undefined;
  if (command === 'rotate-step-up-key' && extra.length === 0 && !copyFlags && !(v['data-dir'] && v['database-url']))
    return rotateStepUpKey(v['data-dir'], v['database-url'], io, env);
  if (command !== 'copy' || extra.length > 0 || rotateFlags) {
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

/** The store: files when --data-dir says so or no database is given, else PostgreSQL. */
async function rotateStepUpKey(
  dataDir: string | undefined,
  databaseUrl: string | undefined,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = dataDir ? undefined : databaseTarget({ name: '--database-url', value: databaseUrl }, env);
  if (target !== undefined && 'problem' in target) {
    io.err(target.problem);
    return 2;
  }
  const read = stepUpKeysOf(env);
  if ('problems' in read) {
    io.err(read.problems.map((p) => `${p}\n`).join('') + USAGE);
    return 2;
  }
  const warnings: string[] = [];
  const where = target ? describeDatabase(target.url) : (dataDir ?? toolDataDirOf(env));
  try {
    const counts = target
      ? await rekeyPgStepUp(target.url, read.keys, (m) => warnings.push(m))
      : await rekeyFileStepUp(where, read.keys, (m) => warnings.push(m));
    for (const w of warnings) io.err(`note: ${w}\n`);
    io.out(rekeySummary(counts));
    return 0;
  } catch (err) {
    for (const w of warnings) io.err(`note: ${w}\n`);
    io.err(`step-up key rotation in ${where}: ${(err as Error).message}\n`);
    return err instanceof RekeyRefusedError ? 1 : 2;
  }
}

function rekeySummary(c: RekeyCounts): string {
  return (
    `step-up secrets in ${c.where} now sealed with ${NEW_KEY_VARIABLE}\n` +
    `  users              ${c.users}\n` +
    `  secrets re-sealed  ${c.resealed}\n` +
    `  already new        ${c.already}\n` +
    `Now give the bot the new key as ${OLD_KEY_VARIABLE} (or its _FILE), unset ${NEW_KEY_VARIABLE}, and start it.\n`
  );
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
