/**
 * One replica of the bot in its own process, as production runs it: the configuration from the
 * environment (loadConfig, like main.ts), then runBot. What production cannot set by environment
 * comes as JSON in REPLICA_RUN_OPTIONS: the engine's tick and a fault suite's shorter engine
 * timings. Logs are the bot's own JSON lines on stdout; SIGTERM stops it cleanly (exit 0),
 * SIGKILL is how a test kills it.
 */
import { loadConfig } from '../../../../src/bot/config/index.js';
import { runBot, type RunOptions } from '../../../../src/bot/runtime/run-bot.js';
import { startSandbox } from '../../../../src/stand-ins/sandbox/index.js';

export type ReplicaRunOptions = Pick<RunOptions, 'tickMs' | 'engineConfig' | 'shutdownGraceMs'>;

const options = JSON.parse(process.env.REPLICA_RUN_OPTIONS ?? '{}') as ReplicaRunOptions;
try {
  const desk = await runBot(loadConfig(process.env), { ...options, startSandbox });
  process.once('SIGTERM', () => void desk.stop().finally(() => process.exit(0)));
} catch (err) {
  console.error(`replica failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
