/**
 * Stored values whose shape changed, brought to the current one at start, before anything reads
 * them. Each step is idempotent: a value already in the current shape is left alone.
 *
 * - Deposits were kept as the exchange's bodies (snake_case) in the deposit watch's state and
 *   in each deposit message reference; they are now the port's Deposit records
 *   (ports/exchange-port.ts), read through the same mapping the exchange port uses.
 * - The deposit watch delivered its own notices, counting attempts (version 2); the desk's outbox
 *   delivers them now, so version 3 keeps them without attempts and hands them over on its next poll.
 * - A refused form submission used to leave its token marked `refused` (an in-process map let a
 *   corrected form through). The token is now claimed in the store (setIfAbsent), so a refusal
 *   frees it instead; a `refused` token left from before would hold a corrected form as "already
 *   submitted", so it is deleted.
 */
import { WATCH_STATE_KEY } from '../engine/compliance/watch-state.js';
import { deposit as depositRecord } from '../exchange/adapter/deposit-records.js';
import { cryptoDeposit } from '../exchange/schemas.js';
import type { Deposit } from '../ports/exchange-port.js';
import { DEPOSIT_MESSAGE_KEY_PREFIX } from '../slack/compliance/deposit-notifier.js';
import type { DurableKeyValueStore } from '../store/kv.js';
import { SUBMISSION_KEY_PREFIX } from '../slack/request-forms/submission-markers.js';

interface Log {
  info(message: string, data?: Record<string, unknown>): void;
}

export async function upgradeStoredValues(kv: DurableKeyValueStore, log: Log): Promise<void> {
  // In order: a version 1 state becomes 2, then 3.
  const fromWire = await upgradeWatchState(kv);
  const watch = (await dropWatchDeliveryAttempts(kv)) || fromWire;
  const messages = await upgradeDepositMessages(kv);
  if (watch || messages > 0)
    log.info('stored deposits brought to the current shape', { watchState: watch, depositMessages: messages });
  const tokens = await freeRefusedSubmissionTokens(kv);
  if (tokens > 0) log.info('refused form submissions from before the shared store freed', { tokens });
}

/** Tokens of refused submissions kept as `refused` by an older version: deleted. How many. */
async function freeRefusedSubmissionTokens(kv: DurableKeyValueStore): Promise<number> {
  let freed = 0;
  for (const key of await kv.keys(SUBMISSION_KEY_PREFIX)) {
    // Only a view's own token: a refused claim's answer (<token>:refused:<claim>) is kept for its waiters.
    if (key.slice(SUBMISSION_KEY_PREFIX.length).includes(':')) continue;
    if ((await kv.get<{ state?: unknown }>(key))?.state !== 'refused') continue;
    await kv.set(key, undefined);
    freed++;
  }
  return freed;
}

/** Version 1 of the deposit watch's state -> version 2. True when it migrated. */
async function upgradeWatchState(kv: DurableKeyValueStore): Promise<boolean> {
  const state = await kv.get<Record<string, unknown> & { version?: unknown }>(WATCH_STATE_KEY);
  if (state?.version !== 1) return false;
  const tracked = state.tracked as Record<string, { deposit: unknown; firstSeenAt: number }>;
  const outbox = state.outbox as {
    kind: string;
    deposit: unknown;
    changes?: { status?: unknown; travel_rule_status?: unknown };
    attempts: number;
  }[];
  await kv.set(WATCH_STATE_KEY, {
    ...state,
    version: 2,
    tracked: Object.fromEntries(Object.entries(tracked).map(([id, t]) => [id, { ...t, deposit: fromWire(t.deposit) }])),
    outbox: outbox.map((entry) => {
      const moved = entry.changes;
      const changes = moved && {
        ...(moved.status ? { status: moved.status } : {}),
        ...(moved.travel_rule_status ? { travelRuleStatus: moved.travel_rule_status } : {}),
      };
      return { ...entry, deposit: fromWire(entry.deposit), ...(changes ? { changes } : {}) };
    }),
  });
  return true;
}

/** Version 2 of the deposit watch's state -> version 3: its notices kept, their attempts dropped. True when it upgraded. */
async function dropWatchDeliveryAttempts(kv: DurableKeyValueStore): Promise<boolean> {
  const state = await kv.get<Record<string, unknown> & { version?: unknown; outbox?: Record<string, unknown>[] }>(
    WATCH_STATE_KEY,
  );
  if (state?.version !== 2) return false;
  await kv.set(WATCH_STATE_KEY, {
    ...state,
    version: 3,
    outbox: (state.outbox ?? []).map(({ attempts: _attempts, ...notice }) => notice),
  });
  return true;
}

/** Deposit message references holding an exchange body. How many migrated. */
async function upgradeDepositMessages(kv: DurableKeyValueStore): Promise<number> {
  let migrated = 0;
  for (const key of await kv.keys(DEPOSIT_MESSAGE_KEY_PREFIX)) {
    const ref = await kv.get<{ deposit?: Record<string, unknown> }>(key);
    if (ref?.deposit === undefined || 'transactionId' in ref.deposit) continue;
    await kv.set(key, { ...ref, deposit: fromWire(ref.deposit) });
    migrated++;
  }
  return migrated;
}

/** A stored exchange body that no longer parses throws: the operator must see it, not lose it. */
function fromWire(raw: unknown): Deposit {
  return depositRecord(cryptoDeposit.parse(raw));
}
