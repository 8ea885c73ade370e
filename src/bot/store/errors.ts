import { errorText } from '../domain/error-text.js';
/**
 * The store's error model. A corrupt or unknown file stops the bot with a message naming the file
 * and the problem; the file itself is never reset or overwritten.
 */

/**
 * Stored data is not what this build can read: bad JSON, unknown version, schema failure. `file`
 * names where: a path, or a table and row of the database.
 */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
  readonly file: string;
  readonly problem: string;
  /** 1-based line number for JSON-lines files. */
  readonly line: number | undefined;

  constructor(file: string, problem: string, line?: number) {
    super(
      `${file}${line === undefined ? '' : `, line ${line}`}: ${problem}. ` +
        'Nothing was changed: repair it or restore it from a backup, then start again.',
    );
    this.file = file;
    this.problem = problem;
    this.line = line;
  }
}

/** Another instance (in this process or another) holds the file. */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
  readonly lockFile: string;

  constructor(lockFile: string, message: string) {
    super(message);
    this.lockFile = lockFile;
  }
}

/**
 * A write failed part-way (disk full, fsync error). What reached the disk is unknown, so the
 * store refuses every further write; reopening it (a restart) reconciles from the files.
 */
export class StoreFailedError extends Error {
  override name = 'StoreFailedError';

  constructor(file: string, cause: unknown) {
    super(
      `${file}: a write failed (${errorText(cause)}); ` +
        'the store refuses further writes until it is reopened (restart the bot)',
      { cause },
    );
  }
}

/** The store was closed; nothing more can be read or written through this instance. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';

  constructor(file: string) {
    super(`${file}: the store is closed`);
  }
}
