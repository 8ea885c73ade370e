/**
 * The whole compliance flow through Bolt, started the one way tests start the bot
 * (test/support/bot.ts): the real HTTP receiver with signed requests, the fake Slack Web API
 * recording every call, over the sandbox exchange and the file stores of a World (deposit watch ->
 * the desk's outbox -> its notifier; declarations in the Slack deps).
 */
import type { Declarations } from '../../../../../src/bot/engine/compliance/declare.js';
import { createDepositWatch, type DepositWatch } from '../../../../../src/bot/engine/compliance/deposit-watch.js';
import type { Config } from '../../../../../src/bot/config/index.js';
import type { FakeSlackApi } from '../../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { isFinishedRequest, type RequestRecord } from '../../../../../src/bot/domain/record.js';
import { memoryRepository } from '../../../../../src/bot/store/memory.js';
import type { SlackApp } from '../../../../../src/bot/slack/shell/slack-app.js';
import { PEOPLE, PEOPLE_ENV } from '../../../slack/support/harness.js';
import type { SlackRequester } from '../../../slack/support/signed-requests.js';
import { startBot } from '../../../../support/bot.js';
import type { World } from './world.js';

export const COMPLIANCE_CHANNEL = 'C0COMPLY1';
export { PEOPLE };

export interface ComplianceBot {
  fake: FakeSlackApi;
  slack: SlackRequester;
  app: SlackApp;
  config: Config;
  declarations: Declarations;
  /** A watch over the world's current stores (build a new one after world.restart()). */
  watch(): DepositWatch;
  stop(): Promise<void>;
}

export async function startComplianceBot(world: World): Promise<ComplianceBot> {
  // Listeners bound their waits with clock.sleep (the wallet search's deadline): a real one here.
  const clock = { now: () => world.clock.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  const bot = await startBot({
    exchange: world.api,
    env: { ...PEOPLE_ENV, COMPLIANCE_CHANNEL_ID: COMPLIANCE_CHANNEL },
    clock,
    stores: { requests: memoryRepository<RequestRecord>(isFinishedRequest), kv: world.kv, audit: world.audit },
    logger: world.logger,
    notifierRetry: {},
  });
  const { fake, config, desk } = bot;
  const app = desk.slack;
  const { declarations } = desk;
  return {
    fake,
    slack: bot.slack,
    app,
    config,
    declarations,
    watch: () => {
      const watch = createDepositWatch(
        {
          exchange: world.exchange,
          kv: world.kv,
          audit: world.audit,
          notices: desk.engine.notices,
          clock: world.clock,
          logger: world.logger,
        },
        { initialLookbackMs: 1 },
      );
      // Each poll waits for the desk's outbox to deliver what it handed over, as the bot's notifier posts it.
      return { poll: () => watch.poll().finally(() => desk.engine.idle()) };
    },
    stop: () => bot.stop(),
  };
}
