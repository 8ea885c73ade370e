// The preview's own files beside its requests: sandbox.json and slack-workspace.json, each replaced
// atomically and durably before the answer that changed it goes out, so a restart continues (`--fresh` restarts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeSlackApi, FakeSlackSaved } from '../fake-slack/fake-slack-api.js';
import { REQUEST_STORE_NAME } from '../../bot/domain/record-schema.js';
import type { SavedWorkspace, Workspace } from '../local-desk/server/index.js';
import { decodeSandbox } from '../sandbox/index.js';
import { DIR_MODE, replaceFileDurably } from '../../bot/store/durable-io.js';
import { StoreCorruptError } from '../../bot/store/errors.js';
import { acquireLock } from '../../bot/store/lock.js';
import { repositoryFiles } from '../../bot/store/repository.js';

export const SANDBOX_FILE_NAME = 'sandbox.json';
export const SLACK_FILE_NAME = 'slack-workspace.json';

/** Bumped when a saved workspace can no longer be read by this build. */
const SAVED_SLACK_VERSION = 1;

export interface SavedSlack {
  version: typeof SAVED_SLACK_VERSION;
  slack: FakeSlackSaved;
  workspace: SavedWorkspace;
}

export interface PreviewFiles {
  dir: string;
  sandbox: string | undefined;
  slack: SavedSlack | undefined;
  /** Said once at start when the folder holds requests but no saved sandbox (an earlier build wrote it). */
  warning: string | undefined;
  saveSandbox(text: string): Promise<void>;
  /** Saves the stand-in and the workspace on every change, a Slack call's before its answer; the function returned stops and waits for the last save. */
  keepSlack(slack: FakeSlackApi, ws: Workspace): () => Promise<void>;
}

const FRESH_HINT =
  "to start the local preview over, run `npm start -- --fresh` (it erases the preview's requests, sandbox and workspace)";

/** Reads what the last run saved in `dir` (nothing yet: a first run). A file that does not parse stops the start, naming it. */
export function openPreviewFiles(dir: string): PreviewFiles {
  // Only the bot's own user may read it, as the stores' folder (stores.ts).
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const sandboxFile = join(dir, SANDBOX_FILE_NAME);
  const slackFile = join(dir, SLACK_FILE_NAME);
  const sandbox = existsSync(sandboxFile) ? readFileSync(sandboxFile, 'utf8') : undefined;
  if (sandbox !== undefined) {
    try {
      decodeSandbox(sandbox);
    } catch (err) {
      throw new StoreCorruptError(
        sandboxFile,
        `the saved sandbox cannot be read (${(err as Error).message}); ${FRESH_HINT}`,
      );
    }
  }
  let slack: SavedSlack | undefined;
  if (existsSync(slackFile)) {
    try {
      slack = JSON.parse(readFileSync(slackFile, 'utf8')) as SavedSlack;
    } catch (err) {
      throw new StoreCorruptError(slackFile, `it is not JSON (${(err as Error).message}); ${FRESH_HINT}`);
    }
    // The file's own word, not the type the parse was cast to: an old or foreign file says another version.
    const version: unknown = slack.version;
    if (version !== SAVED_SLACK_VERSION)
      throw new StoreCorruptError(
        slackFile,
        `it is version ${String(version)}, this build reads ${SAVED_SLACK_VERSION}; ${FRESH_HINT}`,
      );
  }
  // Requests without the sandbox they were sent to: a folder from a build that did not save it.
  const orphaned = sandbox === undefined && existsSync(repositoryFiles(dir, REQUEST_STORE_NAME).live);
  const warning = orphaned
    ? `${dir} holds requests but no saved sandbox (an earlier build did not keep it): withdrawals and orders sent before are not on this sandbox, and the bot will say so in their threads; ${FRESH_HINT}`
    : undefined;
  return {
    dir,
    sandbox,
    slack,
    warning,
    // Through the thread pool: the bot shares this event loop, and its Slack acknowledgements must not wait for an fsync.
    saveSandbox: (text) => replaceFileDurably(sandboxFile, text),
    keepSlack(fake, ws) {
      const keyOf = (slack: FakeSlackSaved) => `${ws.version} ${slack.ts} ${slack.views} ${slack.hashes}`;
      // What was read at start is on disk already: a run that changes nothing (one refused at start) writes nothing over it.
      let saved: string | undefined = keyOf(fake.saved());
      let saving: Promise<void> = Promise.resolve();
      /** Saves what the stand-in and the workspace hold now, after the saves before it; nothing when both are unchanged. */
      const save = (): Promise<void> => {
        const slack = fake.saved();
        const key = keyOf(slack);
        if (key === saved) return saving;
        saved = key;
        const text = JSON.stringify({
          version: SAVED_SLACK_VERSION,
          slack,
          workspace: ws.saved(),
        } satisfies SavedSlack);
        saving = saving
          .then(() => replaceFileDurably(slackFile, text))
          .catch((err: unknown) => {
            saved = undefined;
            process.emitWarning(`the local desk's workspace was not saved to ${slackFile}: ${(err as Error).message}`);
          });
        return saving;
      };
      // The bot hears a Slack call's answer once what it changed is on disk (the desk folds a call before this runs).
      fake.holdAnswers(save);
      // What the page itself changes (a command shown to the one who typed it) is saved once the change is whole.
      const stopChanges = ws.onChange(() => queueMicrotask(() => void save()));
      return async () => {
        fake.holdAnswers(undefined);
        stopChanges();
        await save();
      };
    },
  };
}

/** The files of the embedded default in its folder: its stores, the sandbox, the workspace, and temporary files of interrupted writes. */
const PREVIEW_FILE = new RegExp(`^\\.?(${REQUEST_STORE_NAME}|kv|audit|sandbox|slack-workspace)[.-]`);

/** Erases only the preview's files; refused while another run holds the folder. Returns the names erased. */
export async function startOver(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  // Taken and let go at once: a live run holds it, and then nothing is erased.
  (await acquireLock(repositoryFiles(dir, REQUEST_STORE_NAME).lock)).release();
  const erased = readdirSync(dir).filter((name) => PREVIEW_FILE.test(name));
  for (const name of erased) rmSync(join(dir, name), { recursive: true, force: true });
  return erased;
}
