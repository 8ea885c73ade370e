// The one reader of a secret file (exchange key, database URL), for the bot and operator tools alike,
// so a file others can read is refused everywhere, naming the chmod (domain/secret-edges.ts).
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { secretFileExposure } from '../domain/secret-edges.js';

/** A secret file that group or others can read; its message says which chmod fixes it. */
export class ExposedSecretFileError extends Error {
  override name = 'ExposedSecretFileError';
}

/** The file's text; throws ExposedSecretFileError when it is too open, fs errors (ENOENT…) as they are. */
export function readSecretFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    // Judged on the file opened, not on a path someone could swap between a check and the read.
    const exposed = secretFileExposure(path, fstatSync(fd), process.getuid?.());
    if (exposed !== undefined) throw new ExposedSecretFileError(exposed);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
