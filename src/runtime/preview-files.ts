/**
 * The embedded default's own files, beside its requests in its data folder: the sandbox exchange
 * (sandbox.json: ledger, records, clock) and the Slack stand-in's workspace (slack-workspace.json:
 * channels, messages, threads, App Homes, views, the ts sequence). Each is replaced atomically and
 * durably (store/durable-io.ts) whenever it changed, before the answer that changed it goes out, so
 * a restart continues where the last run stopped; `npm start -- --fresh` starts over.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeSlackApi, FakeSlackSaved } from '../devtools/fake-slack-api.js';
import { DESK_REQUEST_STORE_NAME } from '../domain/record-schema.js';
import type { SavedWorkspace, Workspace } from '../local-desk/server/index.js';
import { decodeSandbox } from '../sandbox/index.js';
import { DIR_MODE, replaceFileDurablySync } from '../store/durable-io.js';
import { StoreCorruptError } from '../store/errors.js';
import { acquireLock } from '../store/lock.js';
import { repositoryFiles } from '../store/repository.js';

export const SANDBOX_FILE_NAME = 'sandbox.json';
export const SLACK_FILE_NAME = 'slack-workspace.json';

/** Bumped when a saved workspace can no longer be read by this build. */
const SAVED_SLACK_VERSION = 1;

/** What the stand-in and the local desk's workspace saved together. */
export interface SavedSlack {
  version: typeof SAVED_SLACK_VERSION;
  slack: FakeSlackSaved;
  workspace: SavedWorkspace;
}

export interface PreviewFiles {
  dir: string;
  /** The sandbox's last saved text, if a run saved one. */
  sandbox: string | undefined;
  slack: SavedSlack | undefined;
  /** Said once at start when the folder holds requests but no saved sandbox (an earlier build wrote it). */
  warning: string | undefined;
  saveSandbox(text: string): void;
  /** Saves the stand-in and the workspace on every Slack call and every change of the workspace (see keepSlack). */
  keepSlack(slack: FakeSlackApi, ws: Workspace): () => void;
}

const FRESH_HINT = 'to start the local preview over, run `npm start -- --fresh` (it erases the preview\'s requests, sandbox and workspace)';

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
      throw new StoreCorruptError(sandboxFile, `the saved sandbox cannot be read (${(err as Error).message}); ${FRESH_HINT}`);
    }
  }
  let slack: SavedSlack | undefined;
  if (existsSync(slackFile)) {
    try {
      slack = JSON.parse(readFileSync(slackFile, 'utf8')) as SavedSlack;
    } catch (err) {
      throw new StoreCorruptError(slackFile, `it is not JSON (${(err as Error).message}); ${FRESH_HINT}`);
    }
    if (slack.version !== SAVED_SLACK_VERSION) throw new StoreCorruptError(slackFile, `it is version ${String(slack.version)}, this build reads ${SAVED_SLACK_VERSION}; ${FRESH_HINT}`);
  }
  // Requests without the sandbox they were sent to: a folder from a build that did not save it.
  const orphaned = sandbox === undefined && existsSync(repositoryFiles(dir, DESK_REQUEST_STORE_NAME).live);
  const warning = orphaned
    ? `${dir} holds requests but no saved sandbox (an earlier build did not keep it): withdrawals and orders sent before are not on this sandbox, and the bot will say so in their threads; ${FRESH_HINT}`
    : undefined;
  return {
    dir,
    sandbox,
    slack,
    warning,
    saveSandbox: (text) => replaceFileDurablySync(sandboxFile, text),
    keepSlack(fake, ws) {
      let dirty = false;
      const save = () => {
        dirty = false;
        replaceFileDurablySync(slackFile, JSON.stringify({ version: SAVED_SLACK_VERSION, slack: fake.saved(), workspace: ws.saved() } satisfies SavedSlack));
      };
      // A call is saved before the bot hears the answer (this listener runs after the desk's fold).
      const stopCalls = fake.onCall(save);
      // What the page itself changes (a command shown to the one who typed it) is saved once per change burst.
      const stopChanges = ws.onChange(() => {
        if (dirty) return;
        dirty = true;
        queueMicrotask(() => dirty && save());
      });
      return () => {
        stopCalls();
        stopChanges();
      };
    },
  };
}

/** The files of the embedded default in its folder: its stores, the sandbox, the workspace, and temporary files of interrupted writes. */
const PREVIEW_FILE = new RegExp(`^\\.?(${DESK_REQUEST_STORE_NAME}|kv|audit|sandbox|slack-workspace)[.-]`);

/**
 * `--fresh`: erases the embedded default's files in `dir` (nothing else there), so the preview
 * starts over. Refused while another run holds the folder. Returns the names erased.
 */
export function startOver(dir: string): string[] {
  if (!existsSync(dir)) return [];
  // Taken and let go at once: a live run holds it, and then nothing is erased.
  acquireLock(repositoryFiles(dir, DESK_REQUEST_STORE_NAME).lock).release();
  const erased = readdirSync(dir).filter((name) => PREVIEW_FILE.test(name));
  for (const name of erased) rmSync(join(dir, name), { recursive: true, force: true });
  return erased;
}
