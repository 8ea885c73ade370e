/**
 * The whole compliance flow through Bolt: the real HTTP receiver with signed requests, the fake
 * Slack Web API recording every call, the sandbox exchange and the file stores of a World, wired
 * the way main.ts wires them (deposit watch -> the desk's outbox -> its notifier; declarations in the Slack deps).
 */
import { createExchangeListings } from '../../../../../src/bot/exchange/adapter/listings.js';
import type { Declarations } from '../../../../../src/bot/engine/compliance/declare.js';
import { createDepositWatch, type DepositWatch } from '../../../../../src/bot/engine/compliance/deposit-watch.js';
import { loadConfig, type Config } from '../../../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { composeDesk } from '../../../../../src/bot/runtime/compose.js';
import { isFinishedRequest, type DeskRequest } from '../../../../../src/bot/domain/record.js';
import { memoryRepository } from '../../../../../src/bot/store/memory.js';
import { EVENTS_PATH, type SlackApp } from '../../../../../src/bot/slack/shell/slack-app.js';
import { BOT_TOKEN, PEOPLE, SIGNING_SECRET } from '../../../slack/support/harness.js';
import { SlackRequester } from '../../../slack/support/signed-requests.js';
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
  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    APPROVAL_CHANNEL_ID: 'C0APPROVE1',
    COMPLIANCE_CHANNEL_ID: COMPLIANCE_CHANNEL,
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
    COMPLIANCE_USER_IDS: PEOPLE.compliance,
    LOG_LEVEL: 'error',
  });
  // Listeners bound their waits with clock.sleep (the wallet search's deadline): a real one here.
  const clock = { now: world.clock.now, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  const desk = composeDesk({
    config,
    clock,
    exchange: world.exchange,
    listings: createExchangeListings(world.api),
    requests: memoryRepository<DeskRequest>(isFinishedRequest),
    kv: world.kv,
    audit: world.audit,
    logger: () => world.logger,
    receiverOptions: { port: 0, retryConfig: { retries: 0 } },
  });
  const app = desk.slack;
  const { declarations } = desk;
  const { port } = await desk.start();
  return {
    fake,
    slack: new SlackRequester(`http://127.0.0.1:${port}${EVENTS_PATH}`, SIGNING_SECRET),
    app,
    config,
    declarations,
    watch: () => {
      const watch = createDepositWatch({ exchange: world.exchange, kv: world.kv, audit: world.audit, notices: desk.engine.notices, clock: world.clock, logger: world.logger }, { initialLookbackMs: 1 });
      // Each poll waits for the desk's outbox to deliver what it handed over, as the bot's notifier posts it.
      return { poll: () => watch.poll().finally(() => desk.engine.idle()) };
    },
    async stop() {
      await desk.stop();
      await fake.stop();
    },
  };
}
