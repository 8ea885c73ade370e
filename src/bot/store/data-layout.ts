// Where the desk's files live, for the bot and every operator tool: DATA_DIR; else ./data/preview
// when neither Slack nor the exchange is configured (so a preview never mixes with a desk); else ./data.
import { existsSync } from 'node:fs';

/** Any of these set switches the embedded default off: the configuration is then validated as for production. */
export const CONFIGURING_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'EXCHANGE_BASE_URL',
  'APPROVAL_CHANNEL_ID',
] as const;

/** A configured desk's folder when DATA_DIR is unset (the same default as config/env-schema.ts, which cannot import the store). */
export const CONFIGURED_DATA_DIR = './data';

/** The embedded default's folder (requests, audit log, sandbox.json, slack-workspace.json). */
export const PREVIEW_DATA_DIR = './data/preview';

/** True when the environment configures nothing that matters: `npm start` runs the local preview. */
export function wantsPreview(env: NodeJS.ProcessEnv): boolean {
  // Each secret also counts when given as a file (<NAME>_FILE, config/secret-files.ts).
  return CONFIGURING_VARIABLES.every((name) => !env[name] && !env[`${name}_FILE`]);
}

/** The data folder for `env`, as the bot chooses it. */
export function dataDirOf(env: NodeJS.ProcessEnv): string {
  return env.DATA_DIR || (wantsPreview(env) ? PREVIEW_DATA_DIR : CONFIGURED_DATA_DIR);
}

/** As the bot's, except the preview's folder only where a preview has run: a desk configured in its process manager keeps ./data. */
export function toolDataDirOf(env: NodeJS.ProcessEnv, exists: (path: string) => boolean = existsSync): string {
  const dir = dataDirOf(env);
  return dir === PREVIEW_DATA_DIR && !exists(PREVIEW_DATA_DIR) ? CONFIGURED_DATA_DIR : dir;
}
