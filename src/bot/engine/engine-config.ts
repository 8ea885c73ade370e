/**
 * Engine settings with their defaults. Every timing the engine uses is here, in milliseconds.
 */
import type { ExchangeLimits } from '../ports/exchange-port.js';

export interface EngineConfig {
  /** A quote with less than this left before expires_at is not ordered on: re-quote first. */
  quoteSafetyMarginMs: number;
  /** Re-quotes after an order refused for an unusable quote, before the request fails. */
  maxUnusableRequotes: number;
  /**
   * Proposed limit for a re-approval round when the requester gave an absolute limit: the new
   * indicative price moved by this many basis points (a slippage limit keeps its own bps).
   */
  reapprovalSlippageBps: number;
  /**
   * Sends of one client_order_id (first send plus resends after unknown outcomes). Only orders are
   * ever sent again on the bot's own: the exchange refuses a reused client_order_id. A withdrawal
   * is never sent again without a person (its request_id must not be relied on against duplicates).
   */
  maxSendsPerKey: number;
  /** After an unknown outcome, the first look on the exchange comes this long after the send. */
  firstLookAfterMs: number;
  /** Between looks when the exchange cannot be read. */
  unreadableLookIntervalMs: number;
  /** Clock difference allowed between us and the exchange when it could not be measured. */
  clockSkewMs: number;
  /** Clock difference allowed around the offset measured from the exchange's Date header (1 s resolution, plus the round trip). */
  offsetToleranceMs: number;
  /**
   * How long after the last send a withdrawal with an unknown outcome may still appear on the
   * exchange (a slow exchange commits late): the bot looks on its own until then, and only then
   * asks a person. Far longer than the client's timeout (UNKNOWN_OUTCOME_SETTLE_MINUTES).
   */
  unknownSettleWindowMs: number;
  /**
   * The longest a money-moving call can have been open (the client's timeout is 10 s; writes are
   * never retried inside it). A record created while our call was open is ours unless another
   * matches; after a crash mid-call the call cannot have lasted longer than this.
   */
  maxCallMs: number;
  /** Between looks within the settle window (at least every 30 s; reads stay within the rate cap). */
  lookIntervalMs: number;
  /** Between looks while a person is asked: a withdrawal that appears late is still followed. */
  personWaitLookIntervalMs: number;
  /**
   * How long an execution's lease (record `execution.lease`) lasts past its last renewal, and so
   * how long a request whose holder died waits before another replica takes it over (looking on
   * the exchange first). See DEFAULT_ENGINE_CONFIG for why these values.
   */
  leaseTtlMs: number;
  /** The holder renews its lease this often while its exchange call or its look is under way. */
  leaseRenewMs: number;
  /** Pre-execution checks that cannot read the exchange are retried this often ... */
  checkRetryMs: number;
  /** ... this many times, then the request fails. */
  maxCheckFailures: number;
  poll: PollConfig;
}

export interface PollConfig {
  /** First interval after a submission or a change (POLL_INTERVAL_MS). */
  intervalMs: number;
  /** Interval grows by this factor while nothing changes (and on read errors) ... */
  backoffFactor: number;
  /** ... up to this. */
  maxIntervalMs: number;
  /** Stop following a request this long after its submission. */
  maxAgeMs: number;
  /** Overall cap on polling reads (one per page), per second ... */
  ratePerSecond: number;
  /** ... with this burst. */
  burst: number;
  pageSize: number;
  /**
   * Pages a list walk may read beyond those its own requests fill (other records in the window);
   * what a whole walk does not reach is read one by one. A walk the budget stops goes on next cycle.
   */
  maxPages: number;
  /** Single reads per kind per cycle, for requests the lists cannot reach. */
  singleReadsPerCycle: number;
  /**
   * A record the bot follows that the exchange says does not exist (404; the reference answers
   * the same for another user's withdrawal): single reads answered 404 in a row, at least this
   * many ...
   */
  notFoundReads: number;
  /** ... over at least this long, before polling stops and a person is told in the thread (poll.ts). */
  notFoundForMs: number;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  quoteSafetyMarginMs: 500,
  maxUnusableRequotes: 3,
  reapprovalSlippageBps: 50,
  maxSendsPerKey: 3,
  firstLookAfterMs: 5_000,
  unreadableLookIntervalMs: 30_000,
  clockSkewMs: 60_000,
  offsetToleranceMs: 5_000,
  unknownSettleWindowMs: 10 * 60_000,
  maxCallMs: 30_000,
  lookIntervalMs: 15_000,
  personWaitLookIntervalMs: 120_000,
  checkRetryMs: 30_000,
  maxCheckFailures: 5,
  // The lease of an execution. 15 s exceeds the longest a money-moving call can take without any
  // renewal landing: a send is one POST, never retried, cut off by the client's 10 s timeout
  // (exchange/client.ts DEFAULT_TIMEOUT_MS); reads are retried, but a look is renewed while it
  // reads. Renewing every 5 s leaves two renewals that may fail (a database blip) before a live
  // holder's lease runs out. 15 s is also the longest a request waits after its holder died, and
  // replicas' clocks must agree to well within the 10 s between a renewal and its expiry.
  leaseTtlMs: 15_000,
  leaseRenewMs: 5_000,
  poll: {
    intervalMs: 10_000,
    backoffFactor: 1.5,
    maxIntervalMs: 300_000,
    maxAgeMs: 7 * 24 * 3_600_000,
    // The exchange's own limits (ExchangePort.limits) unless set: see resolveConfig.
    ratePerSecond: 0,
    burst: 0,
    pageSize: 0,
    maxPages: 20,
    singleReadsPerCycle: 2,
    // A record just created may not be readable at once everywhere; five minutes of nothing but
    // 404s (with the backoff, about five reads) is no such delay, and a person should look.
    notFoundReads: 3,
    notFoundForMs: 5 * 60_000,
  },
};

export type EngineConfigInput = Partial<Omit<EngineConfig, 'poll'>> & { poll?: Partial<PollConfig> };

/** The settings with their defaults; polling's rate and page size default to the exchange's limits. */
export function resolveConfig(input: EngineConfigInput, limits: ExchangeLimits): EngineConfig {
  const fromExchange = {
    ratePerSecond: limits.requestsPerSecond,
    burst: limits.requestsPerSecond,
    pageSize: limits.maxPageSize,
  };
  const config = {
    ...DEFAULT_ENGINE_CONFIG,
    ...input,
    poll: { ...DEFAULT_ENGINE_CONFIG.poll, ...fromExchange, ...input.poll },
  };
  // A lease renewed less than twice within its life is lost to the first renewal that fails.
  if (!(config.leaseRenewMs > 0 && config.leaseTtlMs >= 2 * config.leaseRenewMs)) {
    throw new RangeError(
      `the execution lease must last at least two renewals (leaseTtlMs ${config.leaseTtlMs}, leaseRenewMs ${config.leaseRenewMs})`,
    );
  }
  return config;
}
