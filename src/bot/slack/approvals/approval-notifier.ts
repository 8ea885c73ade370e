// The engine's Notifier on Slack: one approval message per request (its ts persisted at once, so updates
// survive a restart), rebuilt from each event's record; thread posts and requester DMs. Delivered from the
// durable outbox, which retries failed steps later; permanent refusals are kept, shown and retried slowly.
import { createHash } from 'node:crypto';
import { KeyedLock } from '../../domain/keyed-lock.js';
import type { DeliveryProgress, Notifier } from '../../ports/notifier.js';
import type { RequestEvent } from '../../ports/events.js';
import type { KeyValueStore } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import { approvalMessageFor, verdictOf, orderResultOf, viewOf } from './from-record.js';
import { withSandboxBanner, type MessagePayload } from '../kit/blocks.js';
import { verdictDm, outcomeDm } from './requester-dms.js';
import { settlementLine, withheldLine } from './person-question.js';
import { orderText, threadPost, type ExecutedThing, type ThreadEvent } from './thread-status.js';
import type { SlackClient } from '../kit/slack-context.js';
import { BLOCK } from '../kit/slack-ids.js';
import {
  DEFAULT_SLACK_RETRY,
  RECIPIENT_REFUSALS,
  SlackDeliveryError,
  withSlackRetry,
  type SlackRetryOptions,
} from '../kit/slack-retry.js';
import { errorText } from '../../domain/error-text.js';

export const APPROVAL_MESSAGE_KEY_PREFIX = 'slack:approval-message:';

/** Where a request's approval message is, and a digest of what it shows. */
export interface ApprovalMessageRef {
  channel: string;
  ts: string;
  /** SHA-256 of the payload last sent (absent for refs written before it was kept). */
  hash?: string;
  /** `updatedAt` of the record the message shows (absent for refs written before it was kept). */
  recordAt?: number;
}

function payloadHash(payload: MessagePayload): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex');
}

export function approvalMessageKey(requestId: string): string {
  return `${APPROVAL_MESSAGE_KEY_PREFIX}${requestId}`;
}

/** The approval message posted for a request, if any. */
export function findApprovalMessage(kv: KeyValueStore, requestId: string): Promise<ApprovalMessageRef | undefined> {
  return kv.get<ApprovalMessageRef>(approvalMessageKey(requestId));
}

export interface SlackNotifierOptions {
  client: { chat: Pick<SlackClient['chat'], 'postMessage' | 'update'> };
  /** APPROVAL_CHANNEL_ID. */
  channel: string;
  kv: KeyValueStore;
  sandbox: boolean;
  logger: Logger;
  retry?: Partial<SlackRetryOptions>;
  /** Pause after a refresh that called Slack, so refreshing every open message stays near chat.update's ~1/s. */
  refreshGapMs?: number;
  /** Called after each event is handled (App Home refreshes); its failures are logged. */
  afterEvent?: (event: RequestEvent) => Promise<void> | void;
}

/** Events that may come for every open request at once: spaced like the refresh, so Slack is not flooded. */
const PACED = new Set<RequestEvent['type']>(['message.refresh', 'approval.recounted']);

/** Events that change nothing on the message (a refused click leaves the record as it was). */
const NO_UPDATE = new Set<RequestEvent['type']>(['approval.refused']);

export function createSlackNotifier(o: SlackNotifierOptions): Notifier {
  const retry: SlackRetryOptions = { ...DEFAULT_SLACK_RETRY, ...o.retry };
  // The outbox delivery and the message refresh call in independently; one request's calls run one
  // at a time, so the second sees the message the first posted instead of posting another.
  const requests = new KeyedLock();
  const call = <T>(what: string, event: RequestEvent, where: string, fn: () => Promise<T>) =>
    withSlackRetry(what, fn, retry, o.logger, { requestId: event.requestId, event: event.type }, where);

  /** Posts the message and persists where it is before anything else can refer to it. */
  async function post(event: RequestEvent): Promise<ApprovalMessageRef> {
    const payload = approvalMessageFor(event.request, o.sandbox);
    const res = await call('chat.postMessage (approval message)', event, o.channel, () =>
      o.client.chat.postMessage({
        channel: o.channel,
        text: payload.text,
        blocks: payload.blocks,
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
    if (!res.ts) throw new Error('chat.postMessage answered without a ts');
    const ref: ApprovalMessageRef = {
      channel: res.channel ?? o.channel,
      ts: res.ts,
      hash: payloadHash(payload),
      recordAt: event.request.updatedAt,
    };
    await o.kv.set(approvalMessageKey(event.requestId), ref);
    return ref;
  }

  async function update(event: RequestEvent, ref: ApprovalMessageRef): Promise<ApprovalMessageRef> {
    const payload = approvalMessageFor(event.request, o.sandbox);
    await call('chat.update (approval message)', event, ref.channel, () =>
      o.client.chat.update({ channel: ref.channel, ts: ref.ts, text: payload.text, blocks: payload.blocks }),
    );
    const next = { ...ref, hash: payloadHash(payload), recordAt: event.request.updatedAt };
    await o.kv.set(approvalMessageKey(event.requestId), next);
    return next;
  }

  async function thread(event: RequestEvent, ref: ApprovalMessageRef, payload: MessagePayload): Promise<void> {
    const p = withSandboxBanner(payload, o.sandbox, BLOCK.sandboxBanner);
    await call('chat.postMessage (thread)', event, ref.channel, () =>
      o.client.chat.postMessage({
        channel: ref.channel,
        thread_ts: ref.ts,
        text: p.text,
        blocks: p.blocks,
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
  }

  /** To the user id: Slack posts it in the bot's direct message with them (chat:write only; no conversations.open, no im:write). */
  async function dm(event: RequestEvent, userId: string, payload: MessagePayload): Promise<void> {
    const p = withSandboxBanner(payload, o.sandbox, BLOCK.sandboxBanner);
    await call('chat.postMessage (DM)', event, `a DM to ${userId}`, () =>
      o.client.chat.postMessage({
        channel: userId,
        text: p.text,
        blocks: p.blocks,
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
  }

  async function dmUnlessGone(event: RequestEvent, userId: string, payload: MessagePayload): Promise<void> {
    try {
      await dm(event, userId, payload);
    } catch (err) {
      if (!(err instanceof SlackDeliveryError && RECIPIENT_REFUSALS.has(err.reason))) throw err;
      o.logger.error(
        'the requester cannot receive DMs from the bot; this DM is given up (the approval message shows the outcome)',
        { requestId: event.requestId, event: event.type, user: userId, error: err.reason },
      );
    }
  }

  return {
    /**
     * Message, thread post, DM, each marked done before the next, so a retry sends only what is left; a
     * failure stops the event there (its later steps and the request's later events wait).
     */
    async notify(event, progress) {
      const called = await requests.run(event.requestId, () => deliver(event, progress));
      // Outside the request's turn: its own next event need not wait for the pause.
      if (called && PACED.has(event.type)) await retry.sleep(o.refreshGapMs ?? 1_000);
    },
  };

  /** True when the approval message was posted or updated. */
  async function deliver(event: RequestEvent, progress: DeliveryProgress | undefined): Promise<boolean> {
    let called = false;
    const done = new Set(progress?.done ?? []);
    const step = async (name: string, fn: () => Promise<void>) => {
      if (done.has(name)) return;
      await fn();
      done.add(name);
      await progress?.markDone(name);
    };
    let ref = await findApprovalMessage(o.kv, event.requestId);
    await step('message', async () => {
      if (ref === undefined) {
        called = true;
        ref = await post(event);
      } else if (NO_UPDATE.has(event.type)) return;
      // A refresh reads the record before it waits its turn here: one older than the message shows stays out.
      else if (ref.recordAt !== undefined && event.request.updatedAt < ref.recordAt) return;
      // A refresh (start, periodic) updates only a message that no longer shows the record.
      else if (
        event.type !== 'message.refresh' ||
        ref.hash !== payloadHash(approvalMessageFor(event.request, o.sandbox))
      ) {
        called = true;
        ref = await update(event, ref);
      }
    });
    const threadEvent = threadEventOf(event);
    if (threadEvent) {
      await step('thread', async () => {
        if (ref === undefined) throw new Error('no approval message to post under yet');
        await thread(event, ref, threadPost(threadEvent));
      });
    }
    const message = dmOf(event);
    if (message) await step('dm', () => dmUnlessGone(event, event.request.requester, message));
    if (o.afterEvent) {
      try {
        await o.afterEvent(event);
      } catch (err) {
        o.logger.warn('after-event hook failed', {
          requestId: event.requestId,
          event: event.type,
          error: errorText(err),
        });
      }
    }
    return called;
  }
}

/** The thread post an event calls for, if any. */
export function threadEventOf(event: RequestEvent): ThreadEvent | undefined {
  const r = event.request;
  const at = event.at;
  switch (event.type) {
    case 'execution.scheduled':
      return { type: 'scheduled', at, executeAt: event.executeAt, reason: event.reason };
    case 'execution.started':
      if (event.retry) return { type: 'resending', at, attempt: event.attempt, what: executedThing(r) };
      // Later attempts of a trade follow a re-quote, which has its own post.
      return event.attempt === 1 ? { type: 'executing', at } : undefined;
    case 'trade.requoted': {
      if (!event.withinLimit || r.snapshot.kind !== 'trade') return undefined;
      return {
        type: 'requoted',
        at,
        pair: r.snapshot.symbol,
        oldPrice: event.oldPrice,
        newPrice: event.newPrice,
        limitPrice: event.limitPrice,
        counter: counterOf(r.snapshot.symbol),
      };
    }
    case 'trade.awaiting_reapproval':
      if (r.snapshot.kind !== 'trade') return undefined;
      return {
        type: 'requote_beyond_limit',
        at,
        pair: r.snapshot.symbol,
        newPrice: event.price,
        limitPrice: event.oldLimitPrice,
        counter: counterOf(r.snapshot.symbol),
      };
    case 'execution.submitted':
      return { type: 'submitted', at, exchangeId: event.exchangeId, status: r.remote?.status ?? 'submitted' };
    case 'execution.outcome_unknown':
      return { type: 'outcome_unknown', at, message: event.message, what: executedThing(r) };
    case 'execution.needs_person': {
      const inDoubt = r.execution?.inDoubt;
      const waitedMinutes = inDoubt
        ? Math.round((inDoubt.settleUntil - (r.execution?.attempts.at(-1)?.startedAt ?? inDoubt.settleUntil)) / 60_000)
        : 0;
      return {
        type: 'needs_person',
        at,
        kind: event.question.kind,
        candidates: event.question.candidates.length,
        waitedMinutes,
        what: executedThing(r),
      };
    }
    case 'execution.person_decided':
      return event.decision.action === 'look_again'
        ? undefined
        : { type: 'person_decided', at, line: settlementLine(event.decision) };
    case 'execution.person_decision_withheld':
      return {
        type: 'decision_withheld',
        at,
        line: withheldLine(event.decision, event.reason, event.appeared, executedThing(r), currencyOf(r)),
      };
    case 'execution.reconciled':
      return { type: 'reconciled', at, found: event.found, exchangeId: event.exchangeId };
    case 'status.changed': {
      const detail = [
        event.travelRuleStatus ? `Travel Rule: ${event.travelRuleStatus}` : '',
        event.pendingReason ? `waiting for ${event.pendingReason}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return { type: 'status_changed', at, to: event.status ?? 'unknown', ...(detail ? { detail } : {}) };
    }
    case 'execution.failed':
      return { type: 'failed', at, message: event.reason };
    case 'request.completed': {
      const order = orderResultOf(r);
      return {
        type: 'completed',
        at,
        explorerUrl: r.remote?.linkExplorer ?? null,
        transactionHash: r.remote?.transactionHash ?? null,
        ...(order ? { order } : {}),
      };
    }
    case 'polling.stopped':
      return event.reason === 'not_found'
        ? {
            type: 'polling_stopped',
            at,
            status: event.status,
            notFound: { what: executedThing(r), exchangeMessage: event.exchangeMessage },
          }
        : { type: 'polling_stopped', at, status: event.status };
    default:
      return undefined;
  }
}

/** The requester's DM an event calls for, if any. */
export function dmOf(event: RequestEvent): MessagePayload | undefined {
  const r = event.request;
  switch (event.type) {
    case 'request.approved':
    case 'request.rejected':
    case 'request.expired': {
      const decision = verdictOf(r);
      if (!decision) return undefined;
      return verdictDm({
        requestId: r.id,
        request: viewOf(r),
        verdict: decision,
        approvers: r.approvals.map((a) => a.userId),
      });
    }
    case 'request.cancelled': {
      // Cancelling your own request needs no message to yourself.
      const decision = verdictOf(r);
      return decision && event.by !== r.requester
        ? verdictDm({ requestId: r.id, request: viewOf(r), verdict: decision })
        : undefined;
    }
    case 'execution.failed':
      return outcomeDm({
        requestId: r.id,
        request: viewOf(r),
        outcome: { kind: 'failed', at: event.at, reason: event.reason },
      });
    case 'request.completed': {
      const order = orderResultOf(r);
      return outcomeDm({
        requestId: r.id,
        request: viewOf(r),
        outcome: {
          kind: 'completed',
          at: event.at,
          explorerUrl: r.remote?.linkExplorer ?? null,
          ...(order ? { orderText: `Filled as ${orderText(order)}.` } : {}),
        },
      });
    }
    default:
      return undefined;
  }
}

/** The asset or currency a withdrawal's candidates are in. */
function currencyOf(r: RequestEvent['request']): string {
  const s = r.snapshot;
  return s.kind === 'crypto_withdrawal' ? s.asset : s.kind === 'fiat_withdrawal' ? s.currency : '';
}

function executedThing(r: RequestEvent['request']): ExecutedThing {
  return r.kind === 'trade' ? 'order' : r.kind === 'bank_account_removal' ? 'removal' : 'withdrawal';
}

function counterOf(symbol: string): string {
  return symbol.split('-')[1] ?? '';
}
