// A repository's records in a scope, read by an operator tool beside a running bot without its lease
// and without writing: the live file is replaced by rename (a read sees old or new whole), history only
// grows (a line still being appended has no newline yet and is not read). On PostgreSQL, one READ ONLY
// transaction, no migration.
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { DurableJsonFile } from './durable-adapter.js';
import { StoreCorruptError } from './errors.js';
import { scanLines } from './json-lines.js';
import { repositoryFiles, validateLive } from './repository.js';
import { check } from './schema-check.js';
import { updatedAtOf } from './scope.js';
import { createPool, transaction } from './postgres/pool.js';
import { rowsInScope } from './postgres/repository.js';

export interface ReadOnlySource<R extends { id: string }> {
  name: string;
  schema: z.ZodType<R>;
  version: number;
}

/** Live records and those finished at or after `since`; undefined when `dir` holds no such store. */
export async function fileRecordsInScope<R extends { id: string }>(
  dir: string,
  source: ReadOnlySource<R>,
  scope: { since: number },
): Promise<R[] | undefined> {
  const files = repositoryFiles(dir, source.name);
  if (!existsSync(files.live)) return undefined;
  const parse = (value: unknown) => check(source.schema, value);
  // Live before history: the bot appends a finish to history before rewriting live, so a record
  // finishing between the two reads is still seen (in history, or live at worst).
  const live = validateLive(files.live, await new DurableJsonFile(files.live).read(), source.version, parse);
  const records = new Map(live);
  if (existsSync(files.history))
    await scanLines(files.history, (line) => {
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch (err) {
        throw new StoreCorruptError(files.history, `not valid JSON (${(err as Error).message})`, line.lineNo);
      }
      const checked = parse(value);
      if (!checked.ok)
        throw new StoreCorruptError(files.history, `record does not match the schema: ${checked.problem}`, line.lineNo);
      // As at open: the history copy wins over live, and an id's last line over its earlier ones.
      if (updatedAtOf(checked.value) >= scope.since) records.set(checked.value.id, checked.value);
      else records.delete(checked.value.id);
    });
  return [...records.values()];
}

/** The same from PostgreSQL; undefined when the database holds no such store yet. */
export async function pgRecordsInScope<R extends { id: string }>(
  url: string,
  source: ReadOnlySource<R>,
  scope: { since: number },
  warn: (message: string) => void,
): Promise<R[] | undefined> {
  const pool = createPool({ url, warn, max: 1 });
  try {
    return await transaction(pool, async (client) => {
      await client.query('SET TRANSACTION READ ONLY');
      // Never migrated here: a database the bot has not opened yet has no tables, so nothing stored.
      const { rows: tables } = await client.query<{ ready: boolean }>(
        "SELECT to_regclass('store_formats') IS NOT NULL AND to_regclass('records') IS NOT NULL AS ready",
      );
      if (!tables[0]?.ready) return undefined;
      const { rows: formats } = await client.query<{ version: number }>(
        'SELECT version FROM store_formats WHERE store = $1',
        [source.name],
      );
      if (formats.length === 0) return undefined;
      if (formats[0]!.version !== source.version)
        throw new StoreCorruptError(
          'store_formats',
          `the ${source.name} records are in format ${formats[0]!.version} (this build reads format ${source.version})`,
        );
      return (await rowsInScope(client, source.name, scope)).map((row) => {
        const checked = check(source.schema, row.body);
        if (!checked.ok)
          throw new StoreCorruptError(`records, id ${row.id}`, `does not match the schema: ${checked.problem}`);
        return checked.value;
      });
    });
  } finally {
    await pool.end();
  }
}
