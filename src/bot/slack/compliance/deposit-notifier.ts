// The ComplianceNotifier on Slack: one message per deposit, kept by transaction id in the shared store and
// updated in place, a thread line per change. A repeated `deposit.seen` updates, never reposts; a thread
// line the outbox saw taken is not posted again.
import type { DeclarationDone, DepositChanges } from '../../ports/events.js';
import type { ComplianceNotifier, DeliveryProgress } from '../../ports/notifier.js';
import type { KeyValueStore } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import type { Deposit } from '../../ports/exchange-port.js';
import type { SlackClient } from '../kit/slack-context.js';
import type { MessagePayload } from '../kit/blocks.js';
import { DEFAULT_SLACK_RETRY, withSlackRetry, type SlackRetryOptions } from '../kit/slack-retry.js';
import { declarationConfirmation, depositChangeLine, depositMessage } from './deposit-message.js';

export const DEPOSIT_MESSAGE_KEY_PREFIX = 'slack:deposit-message:';

export interface DepositMessageRef {
  channel: string;
  ts: string;
  deposit: Deposit;
  declaration?: DeclarationDone;
}

export interface SlackComplianceNotifierOptions {
  client: Pick<SlackClient, 'chat'>;
  /** COMPLIANCE_CHANNEL_ID. */
  channel: string;
  kv: KeyValueStore;
  sandbox: boolean;
  logger: Logger;
  /** Tests: faster retries (slack-retry.ts). */
  retry?: Partial<SlackRetryOptions>;
}

/** The outbox's progress when a caller hands none (every step still to do). */
const NOTHING_DONE: DeliveryProgress = { done: [], markDone: async () => {} };

export function depositMessageKey(transactionId: string): string {
  return `${DEPOSIT_MESSAGE_KEY_PREFIX}${transactionId.toLowerCase()}`;
}

/** The deposit message kept for a transaction, if one was posted (the modal shows its facts). */
export function findDepositMessage(kv: KeyValueStore, transactionId: string): Promise<DepositMessageRef | undefined> {
  return kv.get<DepositMessageRef>(depositMessageKey(transactionId));
}

/** Build the notifier. Slack errors are thrown: the outbox tries again later. */
export function createSlackComplianceNotifier(o: SlackComplianceNotifierOptions): ComplianceNotifier {
  const { kv } = o;
  const retry: SlackRetryOptions = { ...DEFAULT_SLACK_RETRY, ...o.retry };
  const chat = o.client.chat;
  const call = <T>(what: string, transactionId: string, fn: () => Promise<T>) =>
    withSlackRetry(what, fn, retry, o.logger, { transactionId }, o.channel);

  async function post(deposit: Deposit, declaration?: DeclarationDone): Promise<DepositMessageRef> {
    const payload = depositMessage({ deposit, sandbox: o.sandbox, ...(declaration ? { declaration } : {}) });
    const res = await call('chat.postMessage (deposit message)', deposit.transactionId, () =>
      chat.postMessage({ channel: o.channel, text: payload.text, blocks: payload.blocks, unfurl_links: false }),
    );
    if (!res.ts) throw new Error('chat.postMessage answered without a ts');
    const ref: DepositMessageRef = {
      channel: res.channel ?? o.channel,
      ts: res.ts,
      deposit,
      ...(declaration ? { declaration } : {}),
    };
    await kv.set(depositMessageKey(deposit.transactionId), ref);
    return ref;
  }

  async function update(ref: DepositMessageRef): Promise<void> {
    await kv.set(depositMessageKey(ref.deposit.transactionId), ref);
    const payload = depositMessage({
      deposit: ref.deposit,
      sandbox: o.sandbox,
      ...(ref.declaration ? { declaration: ref.declaration } : {}),
    });
    await call('chat.update (deposit message)', ref.deposit.transactionId, () =>
      chat.update({ channel: ref.channel, ts: ref.ts, text: payload.text, blocks: payload.blocks }),
    );
  }

  async function thread(ref: DepositMessageRef, payload: MessagePayload, progress: DeliveryProgress): Promise<void> {
    if (progress.done.includes('thread')) return;
    await call('chat.postMessage (deposit thread)', ref.deposit.transactionId, () =>
      chat.postMessage({
        channel: ref.channel,
        thread_ts: ref.ts,
        text: payload.text,
        blocks: payload.blocks,
        unfurl_links: false,
      }),
    );
    await progress.markDone('thread');
  }

  async function seen(deposit: Deposit): Promise<void> {
    const ref = await findDepositMessage(kv, deposit.transactionId);
    if (ref) await update({ ...ref, deposit });
    else await post(deposit);
  }

  async function changed(deposit: Deposit, changes: DepositChanges, progress: DeliveryProgress): Promise<void> {
    const ref = await findDepositMessage(kv, deposit.transactionId);
    if (!ref) {
      // Never posted (the channel was configured later): post it now, as it is.
      await post(deposit);
      return;
    }
    await update({ ...ref, deposit });
    await thread(ref, depositChangeLine(deposit, changes), progress);
  }

  async function declared(done: DeclarationDone, progress: DeliveryProgress): Promise<void> {
    const ref = await findDepositMessage(kv, done.transactionId);
    const payload = declarationConfirmation(done);
    if (!ref) {
      // A deposit the watch never posted (older than its look-back): say it in the channel.
      await call('chat.postMessage (declaration)', done.transactionId, () =>
        chat.postMessage({ channel: o.channel, text: payload.text, blocks: payload.blocks, unfurl_links: false }),
      );
      o.logger.info('declaration confirmed without a deposit message', { transactionId: done.transactionId });
      return;
    }
    await update({ ...ref, declaration: done });
    await thread(ref, payload, progress);
  }

  return {
    async notify(event, progress = NOTHING_DONE) {
      switch (event.type) {
        case 'deposit.seen':
          return seen(event.deposit);
        case 'deposit.changed':
          return changed(event.deposit, event.changes, progress);
        case 'declaration.done':
          return declared(event.done, progress);
      }
    },
  };
}
