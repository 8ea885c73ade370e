// `npm start` with nothing configured: the bot in HTTP mode against a local Slack stand-in, on the sandbox,
// nothing leaving this machine, saved across restarts. Any Slack or exchange variable switches it off:
// then a missing value is an error, never a silent preview.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Clock } from '../../bot/ports/clock.js';
import { startFakeSlackApi, type FakeSlackApi } from '../fake-slack/fake-slack-api.js';
import type { Sandbox } from '../sandbox/index.js';
import { dataDirOf } from '../../bot/store/data-layout.js';
import { PREVIEW_IDS, previewSlackUsers } from './preview-cast.js';
import { openPreviewFiles, startOver, type PreviewFiles } from './preview-files.js';
import { sandboxLinkedClock } from './sandbox-linked-clock.js';
import { writePreviewPolicy } from './preview-policy.js';

export { wantsPreview } from '../../bot/store/data-layout.js';

/** The preview desk: ids in Slack's format so every check runs as in production (names in preview-cast.ts). */
export const PREVIEW_DESK = {
  trader: PREVIEW_IDS.trader,
  approvers: PREVIEW_IDS.approvers,
  risk: PREVIEW_IDS.risk,
  compliance: PREVIEW_IDS.compliance,
  approvalChannel: PREVIEW_IDS.approvalChannel,
  complianceChannel: PREVIEW_IDS.complianceChannel,
} as const;

/** Everything the preview runs listens here: the bot, the fake Slack, the sandbox. */
export const LOOPBACK = '127.0.0.1';

export interface Preview {
  env: NodeJS.ProcessEnv;
  /** Loopback only, a free port (PORT is the local desk's), on the sandbox's clock. */
  runOptions: {
    receiverOptions: { host: string; port: number };
    clock: Clock;
    sandboxFiles: { restore?: string; save: (text: string) => Promise<void> };
  };
  slack: FakeSlackApi;
  /** What the last run saved, and where this one saves (the data folder's sandbox.json and slack-workspace.json). */
  files: PreviewFiles;
  /** With `fresh`: the files of the last run that were erased. */
  erased: string[];
  /** Signing secret made up for this run (the local requests are signed with it). */
  signingSecret: string;
  /** The bot runs: its clock (and the fake Slack's) follow the embedded sandbox's from now on. */
  link: (sandbox: Sandbox | undefined) => void;
  close(): Promise<void>;
}

/** Continues the saved workspace and returns the environment pointing the bot at it; `fresh` erases it first. */
export async function startPreview(base: NodeJS.ProcessEnv, o: { fresh?: boolean } = {}): Promise<Preview> {
  const botToken = `xoxb-preview-${randomBytes(12).toString('hex')}`;
  const signingSecret = randomBytes(16).toString('hex');
  const dataDir = resolve(dataDirOf(base));
  const erased = o.fresh ? await startOver(dataDir) : [];
  const files = openPreviewFiles(dataDir);
  const { clock, link } = sandboxLinkedClock();
  const slack = await startFakeSlackApi({
    expectedToken: botToken,
    users: previewSlackUsers(),
    now: () => clock.now(),
    ...(files.slack ? { restore: files.slack.slack } : {}),
  });
  const env: NodeJS.ProcessEnv = {
    ...base,
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    APPROVAL_CHANNEL_ID: PREVIEW_DESK.approvalChannel,
    COMPLIANCE_CHANNEL_ID: PREVIEW_DESK.complianceChannel,
    POLICY_FILE: base.POLICY_FILE ?? writePreviewPolicy(dataDir),
    COMPLIANCE_USER_IDS: PREVIEW_DESK.compliance,
    DATA_DIR: dataDir,
  };
  const sandboxFiles = {
    ...(files.sandbox !== undefined ? { restore: files.sandbox } : {}),
    save: (text: string) => files.saveSandbox(text),
  };
  return {
    env,
    slack,
    files,
    erased,
    signingSecret,
    runOptions: { receiverOptions: { host: LOOPBACK, port: 0 }, clock, sandboxFiles },
    link,
    close: () => slack.stop(),
  };
}
