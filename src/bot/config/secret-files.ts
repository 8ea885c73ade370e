// `<NAME>_FILE`: a secret may be read from a file (container secrets in /run/secrets/), keeping the
// value out of the environment (`docker inspect`, /proc/<pid>/environ, crash dumps).
import { resolve } from 'node:path';
import type { ConfigProblem } from './config-error.js';
import { SECRET_VARIABLES } from './env-schema.js';

type Env = Record<string, string | undefined>;
export type SecretVariable = (typeof SECRET_VARIABLES)[number];

export function fileVariable(name: SecretVariable): `${SecretVariable}_FILE` {
  return `${name}_FILE`;
}

export interface SecretFiles {
  /** The environment with each file's content as its variable's value. */
  env: Env;
  /** The variables whose value came from a file (their problems are reported against the file variable). */
  fromFile: ReadonlySet<SecretVariable>;
  problems: ConfigProblem[];
}

/** Setting both `<NAME>` and `<NAME>_FILE` is refused (which counts would be a guess); contents never quoted. */
export function readSecretFiles(env: Env, readFile: (path: string) => string, cwd: string): SecretFiles {
  const out: Env = { ...env };
  const fromFile = new Set<SecretVariable>();
  const problems: ConfigProblem[] = [];
  for (const name of SECRET_VARIABLES) {
    const fileName = fileVariable(name);
    const file = env[fileName]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push({ variable: name, message: `and ${fileName} are both set: keep one` });
      continue;
    }
    const path = resolve(cwd, file);
    let text: string;
    try {
      text = readFile(path);
    } catch (err) {
      // An fs error by its code; a reader's own refusal (a file others can read) in its words.
      const code = (err as NodeJS.ErrnoException).code;
      const message = code || !(err instanceof Error) ? `cannot read ${path}${code ? ` (${code})` : ''}` : err.message;
      problems.push({ variable: fileName, message });
      continue;
    }
    // A file written by `echo` or an editor ends with a newline that is not part of the secret.
    const value = text.replace(/\r?\n$/, '');
    if (value.trim() === '') {
      problems.push({ variable: fileName, message: `${path} is empty` });
      continue;
    }
    out[name] = value;
    fromFile.add(name);
  }
  return { env: out, fromFile, problems };
}
