// The two keys of a step-up key rotation, read as the bot reads STEP_UP_ENCRYPTION_KEY: the value in
// the environment, or a file named by <NAME>_FILE that only its owner may read. Never printed.
import { resolve } from 'node:path';
import { parseStepUpKey } from '../domain/step-up/sealed-secret.js';
import { ExposedSecretFileError, readSecretFile } from '../exchange/secret-file.js';
import type { StepUpKeys } from './step-up-rekey.js';

/** The key the bot runs with now, and the one it will run with (config/env-schema.ts reads the first). */
export const OLD_KEY_VARIABLE = 'STEP_UP_ENCRYPTION_KEY';
export const NEW_KEY_VARIABLE = 'STEP_UP_ENCRYPTION_KEY_NEW';

/** Both keys, or one sentence per problem that never quotes a key. */
export function stepUpKeysOf(env: NodeJS.ProcessEnv): { keys: StepUpKeys } | { problems: string[] } {
  const old = keyOf(env, OLD_KEY_VARIABLE);
  const next = keyOf(env, NEW_KEY_VARIABLE);
  const problems = [old, next].flatMap((k) => ('problem' in k ? [k.problem] : []));
  if ('key' in old && 'key' in next) {
    if (Buffer.from(old.key).equals(Buffer.from(next.key)))
      return { problems: [`${NEW_KEY_VARIABLE} is the same key as ${OLD_KEY_VARIABLE}: generate a new one`] };
    return { keys: { old: old.key, next: next.key } };
  }
  return { problems };
}

function keyOf(env: NodeJS.ProcessEnv, name: string): { key: Uint8Array } | { problem: string } {
  const inline = env[name]?.trim() || undefined;
  const fileVariable = `${name}_FILE`;
  const file = env[fileVariable]?.trim() || undefined;
  if (inline && file) return { problem: `${name} and ${fileVariable} are both set: keep one` };
  let text = inline;
  if (file) {
    const path = resolve(file);
    try {
      // A file written by `echo` or an editor ends with a newline that is not part of the key.
      text = readSecretFile(path).replace(/\r?\n$/, '');
    } catch (err) {
      if (err instanceof ExposedSecretFileError) return { problem: `${fileVariable}: ${err.message}` };
      const code = (err as NodeJS.ErrnoException).code;
      return { problem: `${fileVariable}: cannot read ${path}${code ? ` (${code})` : ''}` };
    }
  }
  if (text === undefined) return { problem: `${name} (or ${fileVariable}) is not set` };
  const parsed = parseStepUpKey(text);
  return parsed.ok ? { key: parsed.key } : { problem: `${file ? fileVariable : name} ${parsed.problem}` };
}
