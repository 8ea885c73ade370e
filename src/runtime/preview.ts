/**
 * `npm start` with nothing configured: the product on its embedded defaults. There is no Slack
 * workspace to talk to, so a local stand-in for the Slack Web API takes its place and the bot
 * runs in HTTP mode against it, on the sandbox exchange, with a desk of preview users. Nothing
 * leaves this machine. Any Slack or exchange variable switches this off: configuration is then
 * validated as for production and a missing value is an error, never a silent preview.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../app/ports.js';
import { startFakeSlackApi, type FakeSlackApi } from '../devtools/fake-slack-api.js';
import type { Sandbox } from '../sandbox/index.js';
import { PREVIEW_IDS, previewSlackUsers } from './preview-cast.js';
import { sandboxLinkedClock } from './sandbox-linked-clock.js';

/** The preview desk: ids in Slack's format so every check runs as in production (names in preview-cast.ts). */
export const PREVIEW_DESK = {
  trader: PREVIEW_IDS.trader,
  approvers: PREVIEW_IDS.approvers,
  compliance: PREVIEW_IDS.compliance,
  approvalChannel: PREVIEW_IDS.approvalChannel,
  complianceChannel: PREVIEW_IDS.complianceChannel,
} as const;

/** Everything the preview runs listens here: the bot, the Slack stand-in, the sandbox. */
export const LOOPBACK = '127.0.0.1';

// Each secret also counts when given as a file (<NAME>_FILE, config/secret-files.ts).
const CONFIGURING = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET', 'EXCHANGE_BASE_URL', 'APPROVAL_CHANNEL_ID'].flatMap((name) => [name, `${name}_FILE`]);

/** True when the environment configures nothing that matters: run the local preview. */
export function wantsPreview(env: NodeJS.ProcessEnv): boolean {
  return CONFIGURING.every((name) => !env[name]);
}

export interface Preview {
  env: NodeJS.ProcessEnv;
  /**
   * How the bot runs beside it: listening on 127.0.0.1 only (nothing here is for other machines),
   * on a free port (PORT is the local desk's), on the sandbox's clock.
   */
  runOptions: { receiverOptions: { host: string; port: number }; clock: Clock };
  slack: FakeSlackApi;
  /** Signing secret made up for this run (the local requests are signed with it). */
  signingSecret: string;
  /** The bot runs: its clock (and the Slack stand-in's) follow the embedded sandbox's from now on. */
  link(sandbox: Sandbox | undefined): void;
  close(): Promise<void>;
}

/** Start the local Slack stand-in and return the environment that points the bot at it. */
export async function startPreview(base: NodeJS.ProcessEnv): Promise<Preview> {
  const botToken = `xoxb-preview-${randomBytes(12).toString('hex')}`;
  const signingSecret = randomBytes(16).toString('hex');
  const { clock, link } = sandboxLinkedClock();
  const slack = await startFakeSlackApi({ expectedToken: botToken, users: previewSlackUsers(), now: clock.now });
  const env: NodeJS.ProcessEnv = {
    ...base,
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    APPROVAL_CHANNEL_ID: PREVIEW_DESK.approvalChannel,
    COMPLIANCE_CHANNEL_ID: PREVIEW_DESK.complianceChannel,
    REQUESTER_USER_IDS: PREVIEW_DESK.trader,
    APPROVER_USER_IDS: PREVIEW_DESK.approvers.join(','),
    COMPLIANCE_USER_IDS: PREVIEW_DESK.compliance,
    DATA_DIR: base.DATA_DIR ?? './data/preview',
  };
  return { env, slack, signingSecret, runOptions: { receiverOptions: { host: LOOPBACK, port: 0 }, clock }, link, close: () => slack.stop() };
}
