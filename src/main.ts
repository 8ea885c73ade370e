/**
 * `npm start`: the composition root. Reads the environment once (config/), starts the desk
 * (runtime/run-bot.ts), and stops it cleanly on SIGINT/SIGTERM so the store's lock files go.
 * With nothing configured it runs the local preview (stand-ins/preview/preview.ts): sandbox exchange and a
 * local stand-in for Slack, so a fresh machine can run the product without any account, and the
 * local desk (stand-ins/preview/run-local-desk.ts) on PORT, where a person uses the whole bot in a browser. Its
 * address is printed first: it is served before the bot starts. The preview continues where the
 * last run stopped; `npm start -- --fresh` starts it over (stand-ins/preview/preview-files.ts).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './bot/config/index.js';
import { StoreCorruptError, StoreLockedError } from './bot/store/errors.js';
import { runBot, type RunningBot } from './bot/runtime/run-bot.js';
import { startPreview, wantsPreview } from './stand-ins/preview/preview.js';
import { runPreview, type LocalDesk } from './stand-ins/preview/run-local-desk.js';
import { SANDBOX_BANNER, startSandbox } from './stand-ins/sandbox/index.js';
import { errorText } from './bot/domain/error-text.js';

/** The command line: `--fresh` only (npm start -- --fresh). */
function startOptions(): { fresh: boolean } {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { fresh: { type: 'boolean', default: false } },
  });
  if (values.fresh && !wantsPreview(process.env)) {
    throw new Error(
      '--fresh starts the local preview over; with Slack or an exchange configured it would erase real requests, so it is refused (move DATA_DIR aside yourself if you mean it)',
    );
  }
  return { fresh: values.fresh };
}

async function main(): Promise<void> {
  const { fresh } = startOptions();
  const preview = wantsPreview(process.env) ? await startPreview(process.env, { fresh }) : undefined;
  if (preview?.files.warning) console.warn(preview.files.warning);
  if (preview && fresh)
    console.log(
      `Starting over: ${preview.erased.length > 0 ? `erased ${preview.erased.join(', ')} in ${preview.files.dir}` : `nothing saved in ${preview.files.dir} yet`}`,
    );
  const env = preview?.env ?? process.env;

  let desk: RunningBot;
  let localDesk: LocalDesk | undefined;
  try {
    const config = loadConfig(env);
    if (preview) {
      const onServed = (url: string) =>
        console.log(
          `Local desk: ${url}  (open it in a browser: be the trader, an approver, compliance or an outsider)`,
        );
      ({ bot: desk, localDesk } = await runPreview(preview, config, { onServed }));
    } else {
      desk = await runBot(config, { startSandbox });
    }
  } catch (err) {
    await preview?.close();
    throw err;
  }

  if (preview && localDesk) {
    console.log(SANDBOX_BANNER);
    console.log(
      [
        `Local preview, nothing leaves this machine: the local desk at ${localDesk.url} drives the bot as Slack would,`,
        `through a local stand-in for the Slack Web API (${preview.slack.apiUrl}), on the sandbox exchange (${desk.sandbox?.url}).`,
        `The bot takes signed Slack requests at http://127.0.0.1:${desk.port}/slack/events (this run's secret).`,
        'The story without a browser: `npm run demo`. A real workspace: the README\'s "Slack setup".',
      ].join('\n'),
    );
  }

  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    desk.logger.info('stopping', { signal });
    void desk
      .stop()
      .then(() => localDesk?.close())
      .then(() => preview?.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  // Start-up failures people must act on are said in one plain paragraph, without a stack.
  if (err instanceof ConfigError || err instanceof StoreCorruptError || err instanceof StoreLockedError) {
    console.error(err.message);
  } else {
    console.error('desk bot failed to start:', errorText(err));
  }
  process.exit(1);
});
