// Where an operator tool finds PostgreSQL, never with a password on the command line (`ps` shows it):
// a flag URL without password (then PGPASSWORD, as psql), else DATABASE_URL, else DATABASE_URL_FILE.
// A flag carrying a password is refused without repeating it.
import { resolve } from 'node:path';
import { ExposedSecretFileError, readSecretFile } from '../exchange/secret-file.js';

/** How the tools' usage texts say it, in one place. */
export const DATABASE_TARGET_HELP =
  'The database: DATABASE_URL, or a file named by DATABASE_URL_FILE holding it (readable by its owner only);\n' +
  'or a URL without its password after the flag, with the password in PGPASSWORD. Never a password on the\n' +
  'command line: every user of this machine can read it (ps).\n';

export type DatabaseTarget = { url: string } | { problem: string } | undefined;

/** The database URL from `flag` (its name and value) or the environment; undefined when none is given. */
export function databaseTarget(
  flag: { name: string; value: string | undefined },
  env: NodeJS.ProcessEnv,
): DatabaseTarget {
  if (flag.value !== undefined) return fromFlag(flag.name, flag.value, env);
  const inline = env.DATABASE_URL?.trim() || undefined;
  const file = env.DATABASE_URL_FILE?.trim() || undefined;
  if (inline && file) return { problem: 'DATABASE_URL and DATABASE_URL_FILE are both set: keep one\n' };
  if (inline) return { url: inline };
  if (!file) return undefined;
  const path = resolve(file);
  try {
    // A file written by `echo` or an editor ends with a newline that is not part of the URL.
    return {
      url: readSecretFile(path)
        .replace(/\r?\n$/, '')
        .trim(),
    };
  } catch (err) {
    if (err instanceof ExposedSecretFileError) return { problem: `DATABASE_URL_FILE: ${err.message}\n` };
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: `DATABASE_URL_FILE: cannot read ${path}${code ? ` (${code})` : ''}\n` };
  }
}

function fromFlag(name: string, value: string, env: NodeJS.ProcessEnv): DatabaseTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${name} is not a URL (postgres://user@host:5432/database)\n` };
  }
  if (url.password || url.searchParams.has('password')) {
    return {
      problem:
        `${name} carries a password: a command line is visible to every user of this machine (ps). ` +
        `Give ${name} without it and the password in PGPASSWORD, or the whole URL in DATABASE_URL or in a file named by DATABASE_URL_FILE.\n`,
    };
  }
  const password = env.PGPASSWORD;
  if (password) url.password = encodeURIComponent(password);
  return { url: url.toString() };
}
