/**
 * `npm start`: the composition root. Reads the environment once (config/), starts the desk
 * (runtime/run-desk.ts), and stops it cleanly on SIGINT/SIGTERM so the store's lock files go.
 * With nothing configured it runs the local preview (runtime/preview.ts): sandbox exchange and a
 * local stand-in for Slack, so a fresh machine can run the product without any account.
 */
import { ConfigError, loadConfig } from './config/index.js';
import { StoreCorruptError, StoreLockedError } from './store/errors.js';
import { runDesk } from './runtime/run-desk.js';
import { startPreview, wantsPreview, PREVIEW_DESK } from './runtime/preview.js';
import { SANDBOX_BANNER } from './sandbox/index.js';
import { errorText } from './domain/error-text.js';

async function main(): Promise<void> {
  const preview = wantsPreview(process.env) ? await startPreview(process.env) : undefined;
  const env = preview?.env ?? process.env;

  let desk;
  try {
    desk = await runDesk(loadConfig(env), preview?.runOptions ?? {});
  } catch (err) {
    await preview?.close();
    throw err;
  }

  if (preview) {
    console.log(SANDBOX_BANNER);
    console.log(
      [
        'Local preview: no Slack workspace and no exchange are configured, so the bot runs against',
        `a local stand-in for the Slack Web API (${preview.slack.apiUrl}) and the sandbox exchange (${desk.sandbox?.url}).`,
        `Slack requests are accepted at http://127.0.0.1:${desk.port}/slack/events, signed with this run's secret.`,
        `Preview desk: trader ${PREVIEW_DESK.trader}, approvers ${PREVIEW_DESK.approvers.join(', ')}, approval channel ${PREVIEW_DESK.approvalChannel}.`,
        'See the whole story with `npm run demo`; connect a workspace with the README\'s "Slack setup".',
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
