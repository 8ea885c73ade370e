import { errorText } from '../domain/error-text.js';
// A corrupt or unknown file stops the bot with a message naming it; the file is never reset or overwritten.

/** Bad JSON, unknown version or schema failure; `file` is a path, or a table and row. */
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

/** A write failed part-way: what reached the disk is unknown, so every further write is refused until reopened. */
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
