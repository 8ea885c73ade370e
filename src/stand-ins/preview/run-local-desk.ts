// The local desk in the preview, served before the bot starts so its address is printed first; the bot and
// sandbox panel attach once running. Never started with a real SLACK_BOT_TOKEN.
import { startLocalDesk, type LocalDesk, type LocalDeskOptions } from '../local-desk/server/index.js';
import { isFromThisMachine, startSandbox, type Sandbox } from '../sandbox/index.js';
import { SERVER_EDGE } from '../../bot/ports/http-edge.js';
import { EVENTS_PATH } from '../../bot/slack/shell/slack-app.js';
import { COMMAND, ESCAPED_COMMANDS } from '../../bot/slack/kit/slack-ids.js';
import { panelSandbox } from './panel-sandbox.js';
import { PREVIEW_CAST } from './preview-cast.js';
import { LOOPBACK, type Preview } from './preview.js';
import type { Config } from '../../bot/config/config.js';
import { runBot, type RunOptions, type RunningBot } from '../../bot/runtime/run-bot.js';

export type { LocalDesk } from '../local-desk/server/index.js';

export type ServeOptions = Pick<LocalDeskOptions, 'keepAliveMs' | 'logError' | 'assets'>;

export async function serveLocalDesk(preview: Preview, port: number, o: ServeOptions = {}): Promise<LocalDesk> {
  try {
    const localDesk = await startLocalDesk({
      slack: preview.slack,
      cast: PREVIEW_CAST,
      port,
      fromThisMachine: isFromThisMachine,
      edge: SERVER_EDGE,
      commands: Object.values(COMMAND),
      escaped: ESCAPED_COMMANDS,
      ...(preview.files.slack ? { saved: preview.files.slack.workspace } : {}),
      ...o,
    });
    // From now on every Slack call and every change the page makes is saved beside the requests.
    const stopKeeping = preview.files.keepSlack(preview.slack, localDesk.ws);
    return {
      ...localDesk,
      close: async () => {
        await localDesk.close();
        await stopKeeping();
      },
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `the local desk cannot listen on ${LOOPBACK}:${port}: something else is using that port. Stop it, or choose another port: PORT=${port + 1} npm start`,
        { cause: err },
      );
    }
    throw err;
  }
}

/** The bot runs: the page's actions go to its receiver, the panel to its sandbox. */
export function attachBot(localDesk: LocalDesk, preview: Preview, desk: RunningBot<Sandbox>): void {
  if (desk.port === undefined) throw new Error('the local desk needs the bot in HTTP mode');
  localDesk.attach({
    endpoint: `http://${LOOPBACK}:${desk.port}${EVENTS_PATH}`,
    signingSecret: preview.signingSecret,
    sandbox: desk.sandbox ? panelSandbox(desk.sandbox.control) : undefined,
  });
}

export interface PreviewRun {
  bot: RunningBot<Sandbox>;
  localDesk: LocalDesk;
}

/** Desk served first (`onServed` hears its address), then the bot on a free port, then joined; the desk closes if the bot fails. */
export async function runPreview(
  preview: Preview,
  config: Config,
  o: {
    onServed?: (url: string) => void;
    runOptions?: Omit<RunOptions<Sandbox>, 'clock' | 'receiverOptions'>;
    serve?: ServeOptions;
  } = {},
): Promise<PreviewRun> {
  const localDesk = await serveLocalDesk(preview, config.slack.port, o.serve);
  o.onServed?.(localDesk.url);
  let desk: RunningBot<Sandbox>;
  try {
    desk = await runBot<Sandbox>(config, {
      startSandbox,
      ...o.runOptions,
      ...preview.runOptions,
      onSandbox: (sandbox) => preview.link(sandbox),
    });
  } catch (err) {
    await localDesk.close();
    throw err;
  }
  preview.link(desk.sandbox);
  attachBot(localDesk, preview, desk);
  return { bot: desk, localDesk };
}
