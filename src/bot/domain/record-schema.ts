// The stored request record, defined once as a schema: record.ts and request.ts infer their types
// from it, and the store checks every record against it on load and before every write.
import { z } from 'zod';
import { isExecutedState, REQUEST_STATES, type ExecutedState, type RequestState } from './state-machine.js';

/** The kinds of request (re-exported by request.ts with its RequestKind type). */
export const REQUEST_KINDS = ['crypto_withdrawal', 'fiat_withdrawal', 'trade', 'bank_account_removal'] as const;

/** Written into the live file; any other version found on load stops the bot (see store/). */
export const REQUEST_RECORD_VERSION = 1;
/** File stem of the request repository in the data folder. */
export const REQUEST_STORE_NAME = 'requests';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const int = z.number().int();
const nullableString = z.string().nullable();

// ---- snapshots: exactly what will be executed, frozen at request time -------------------------

export const indicativeQuoteSchema = z.strictObject({
  quoteId: z.string(),
  price: decimal,
  /** Epoch milliseconds. */
  expiresAt: int,
});

/**
 * The value of a request in one currency, priced at request time and frozen with the snapshot
 * (valuation.ts): what a rule's `value_at_least` was judged on, shown to approvers.
 */
export const valuationSchema = z.strictObject({
  /** The currency the value is in, e.g. "USD". */
  currency: z.string(),
  /** amount × price, unrounded. */
  value: decimal,
  /** What was valued: the request's principal (fees apart) and its currency. */
  amount: decimal,
  of: z.string(),
  /** Price of one `of` in `currency`; "1" when they are the same. */
  price: decimal,
  /** The exchange's spot pair read (BASE-COUNTER), null when no price was needed. */
  pair: z.string().nullable(),
  /** When it was priced (epoch milliseconds). */
  at: int,
});

/**
 * The policy rule a request was made under (domain/policy/), frozen with it: a changed policy file
 * applies to new requests; membership of the groups is read live. `group` '*' is any approver (the
 * count of a request made before rules were frozen).
 */
export const frozenRuleSchema = z.strictObject({
  name: z.string(),
  /** SHA-256 of the rule as written (its canonical JSON), so an audit can tell which version decided. */
  hash: z.string(),
  require: z.array(z.strictObject({ group: z.string(), count: int })),
  /** The rule's expires_after, kept so a re-approval round waits as long whatever the file says later. */
  expiresAfterMs: int.optional(),
  /** The rule's remind_after and remind_every, kept so a pending request is nudged as when it was made. */
  remindAfterMs: int.optional(),
  remindEveryMs: int.optional(),
  /** The rule's step_up: each approval needs a one-time code (absent on rules without it, and before issue 24). */
  stepUp: z.literal(true).optional(),
});

export const bankAccountRefSchema = z.strictObject({
  id: int,
  currency: nullableString,
  /** e.g. "DBS USD ••••6789 (ACME PTE LTD)" */
  display: z.string(),
  /** SHA-256 of the account number as approved: execution sees a changed number without keeping the number itself. */
  accountNumberDigest: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

export const cryptoWithdrawalSnapshotSchema = z.strictObject({
  kind: z.literal('crypto_withdrawal'),
  /** Numeric id of the currency entry (asset on one network): what the exchange is sent. */
  cryptoCurrencyId: int,
  /** Asset symbol, also the balance currency, e.g. "USDT". */
  asset: z.string(),
  /** Network display name, e.g. "Tron (TRC20)". */
  network: z.string(),
  precision: int,
  /** At most `precision` decimals: the exact string sent. */
  amount: decimal,
  fee: decimal,
  /** amount + fee: what the balance must cover. */
  total: decimal,
  destination: z.strictObject({ id: z.string(), label: z.string(), address: z.string(), addressTag: nullableString }),
  note: nullableString,
  purpose: nullableString,
  /** The note sent to the exchange with the first attempt, ending with the desk reference (desk-reference.ts); absent in requests made before it was. */
  exchangeNote: z.string().optional(),
  /** Priced when the policy needed the value (valuation.ts); absent when it did not. */
  valuations: z.array(valuationSchema).optional(),
  /** The rule that decided how it is approved; absent in requests made before rules were frozen. */
  rule: frozenRuleSchema.optional(),
});

export const fiatWithdrawalSnapshotSchema = z.strictObject({
  kind: z.literal('fiat_withdrawal'),
  currency: z.string(),
  bankAccount: bankAccountRefSchema,
  amount: decimal,
  fee: decimal,
  total: decimal,
  note: nullableString,
  /** As the crypto withdrawal's (the fiat body's note is our choice: exchange/assumptions.ts). */
  exchangeNote: z.string().optional(),
  /** Priced when the policy needed the value (valuation.ts); absent when it did not. */
  valuations: z.array(valuationSchema).optional(),
  /** The rule that decided how it is approved; absent in requests made before rules were frozen. */
  rule: frozenRuleSchema.optional(),
});

export const tradeSnapshotSchema = z.strictObject({
  kind: z.literal('trade'),
  /** BASE-COUNTER, e.g. "BTC-USD". */
  symbol: z.string(),
  side: z.enum(['buy', 'sell']),
  quantity: decimal,
  /** Currency `quantity` is expressed in; null lets the exchange default it (counter for buy, base for sell). */
  quantityCurrency: nullableString,
  paymentMethod: z.string(),
  /** The worst price approvers accept: a ceiling for a buy, a floor for a sell. */
  limitPrice: decimal,
  /** Set when the limit was derived from the indicative price by a slippage, for re-approval rounds. */
  slippageBps: int.nullable(),
  /** The quote shown to approvers: informative; execution re-quotes within the limit. */
  quote: indicativeQuoteSchema,
  note: nullableString,
  /** Priced when the policy needed the value (valuation.ts); absent when it did not. */
  valuations: z.array(valuationSchema).optional(),
  /** The rule that decided how it is approved; absent in requests made before rules were frozen. */
  rule: frozenRuleSchema.optional(),
});

export const bankRemovalSnapshotSchema = z.strictObject({
  kind: z.literal('bank_account_removal'),
  bankAccount: bankAccountRefSchema,
  note: nullableString,
  /** As the others'. */
  rule: frozenRuleSchema.optional(),
});

export const snapshotSchema = z.discriminatedUnion('kind', [
  cryptoWithdrawalSnapshotSchema,
  fiatWithdrawalSnapshotSchema,
  tradeSnapshotSchema,
  bankRemovalSnapshotSchema,
]);

// ---- the record around it ---------------------------------------------------------------------

export const approvalSchema = z.strictObject({
  userId: z.string(),
  at: int,
  /** The snapshot hash the approver saw; only approvals of the current hash count. */
  snapshotHash: z.string(),
  /** Who clicked in `userId`'s place, when a delegate did (domain/delegation.ts). */
  delegate: z.string().optional(),
});

/** Who ended the request while it waited for people, and why (reject, cancel, expire). */
export const verdictSchema = z.strictObject({ by: z.string(), at: int, reason: nullableString });

/** `duplicate`: an order refused for its client_order_id, which means it exists (found later, or looked for). */
export const attemptOutcomeSchema = z.enum([
  'in_flight',
  'submitted',
  'refused',
  'unknown',
  'duplicate',
  'quote_unusable',
  'reconciled',
  'completed',
]);

/** One money-moving call, persisted (outcome `in_flight`) before it is sent. */
export const attemptSchema = z.strictObject({
  /** Idempotency key: client_order_id for orders, request_id for withdrawals; a retry after an unknown outcome reuses it. */
  key: z.string(),
  startedAt: int,
  /** Trades: the quote this order executes. */
  quote: indicativeQuoteSchema.nullable(),
  outcome: attemptOutcomeSchema,
  /** The exchange's message for a refusal or the error for an unknown outcome. */
  message: nullableString,
  endedAt: int.nullable(),
});

/** A record on the exchange that may be the one our send created (a withdrawal matched on its terms). */
export const candidateSchema = z.strictObject({
  exchangeId: z.string(),
  /** The exchange's created_at, epoch ms. */
  createdAt: int,
  amount: z.string(),
  status: z.string(),
  /** request_id as the exchange listed it, when it did. */
  requestId: nullableString,
  /** Where it goes: the saved address label or bank account, as the exchange shows it. */
  destination: nullableString,
});

/** What the exchange could not settle and a person must: which candidate is ours, or was it sent at all. */
export const personQuestionSchema = z.strictObject({
  askedAt: int,
  /**
   * not_found: nothing in the settle window; ambiguous: several candidates (or one after the window);
   * unproven: one made too close to our send to prove it is ours; unreadable: still unreadable past the window.
   */
  kind: z.enum(['not_found', 'ambiguous', 'unproven', 'unreadable']),
  candidates: z.array(candidateSchema),
  /** unreadable: why the last look proved nothing, in plain words. */
  message: z.string().optional(),
});

/** A person's settlement on an execution the exchange could not settle (audited too). */
export const settlementRecordSchema = z.strictObject({
  by: z.string(),
  at: int,
  action: z.enum(['look_again', 'send_again', 'mark_not_sent', 'choose']),
  /** choose: the exchange id they said is ours, or null for "none of these". */
  exchangeId: nullableString,
  /** What they checked on the exchange, in their words. */
  checked: nullableString,
});

/** Fixed when the outcome became unknown (the window never grows with the clock); each next look is a time here, so a restart resumes. */
export const inDoubtSchema = z.strictObject({
  since: int,
  /** The exchange's created_at window a record of ours can be in: first send minus the clock offset allowed, last send plus the settle window. */
  window: z.strictObject({ from: int, to: int }),
  /** Until then the bot keeps looking on its own; after, a person is asked (withdrawals). */
  settleUntil: int,
  looks: int,
  lastLookAt: int.nullable(),
  nextLookAt: int,
  question: personQuestionSchema.nullable(),
  /** Exchange ids a person said are not ours ("none of these"): never candidates again. */
  excluded: z.array(z.string()),
  /** A person's send again / mark as not sent, carried out by the step that reads its fresh look, withheld if anything appeared. */
  pendingDecision: settlementRecordSchema.nullable().default(null),
  /** Why a trade went back in doubt: it is not re-quoted, only looked for by client_order_id, then a person is asked. */
  stoppedBecause: nullableString.default(null),
});

/**
 * The replica driving the execution: set in the write before the exchange call, renewed while it
 * runs, cleared with the outcome. Past `until` another replica takes over by looking, never sending.
 */
export const leaseSchema = z.strictObject({
  /** The replica's identity (engine/ids.ts createReplicaId: host, pid and a random part). */
  holder: z.string().min(1),
  /** Epoch ms on the holder's clock; past it, the lease may be taken over. */
  until: int,
});

export const executionSchema = z.strictObject({
  /** When the last approval of the executed round came in. */
  approvedAt: int,
  /** Not before this time (a destination's withdrawal cooldown). */
  scheduledAt: int.nullable(),
  scheduleReason: nullableString,
  attempts: z.array(attemptSchema),
  /** Re-quotes after an order was refused for an unusable quote (bounded). */
  unusableRequotes: int,
  exchangeId: nullableString,
  submittedAt: int.nullable(),
  unknownSince: int.nullable(),
  // Added after version 1 was written: records stored before read as "none yet".
  /** Set while the outcome of the last attempt is unknown (state `unknown`). */
  inDoubt: inDoubtSchema.nullable().default(null),
  /** The exchange's clock minus ours (ms, from its Date header) when the first attempt was sent; null if never measured. */
  clockOffsetMs: int.nullable().default(null),
  /** People's decisions on an unknown outcome, oldest first. */
  decisions: z.array(settlementRecordSchema).default([]),
  /** A pre-execution read that failed (nothing sent): try again at `nextAt`. */
  retry: z.strictObject({ nextAt: int, failures: int }).nullable().default(null),
  /** The replica executing or looking right now; null when nobody is (records stored before leases read as null). */
  lease: leaseSchema.nullable().default(null),
});

/** What polling last reported for a submitted request (persisted before it is notified). */
export const remoteStatusSchema = z.strictObject({
  status: nullableString,
  travelRuleStatus: nullableString,
  pendingReason: nullableString,
  transactionHash: nullableString,
  linkExplorer: nullableString,
});

export const REMOTE_RESULT_FIELDS = [
  'receiptId',
  'price',
  'fee',
  'feeCurrency',
  'netAmount',
  'receivedCurrency',
  'cancelReason',
  'bankReference',
] as const;
export type RemoteResultField = (typeof REMOTE_RESULT_FIELDS)[number];

/** Older records kept the result under the exchange's field names: read under ours, written back on the next write. */
const RESULT_FIELDS_BEFORE: Record<string, RemoteResultField> = {
  order_receipt_id: 'receiptId',
  fee_currency: 'feeCurrency',
  net_amount: 'netAmount',
  received_currency: 'receivedCurrency',
  cancel_reason: 'cancelReason',
  bank_reference: 'bankReference',
};

/** What an order (or a fiat withdrawal) came to: the exchange's values, verbatim strings; a field it did not give is absent or null. */
export const remoteResultSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [RESULT_FIELDS_BEFORE[k] ?? k, v]))
      : value,
  z.strictObject(
    Object.fromEntries(REMOTE_RESULT_FIELDS.map((f) => [f, nullableString.optional()])) as Record<
      RemoteResultField,
      z.ZodOptional<z.ZodNullable<z.ZodString>>
    >,
  ),
);

export const failureSchema = z.strictObject({
  stage: z.enum(['checks', 'quote', 'exchange', 'final_status', 'reconcile']),
  /** Plain sentence for people. */
  reason: z.string(),
  /** The exchange's own words, kept verbatim, when it gave any. */
  exchangeMessage: nullableString,
});

/** A finished approval round (a trade re-quoted beyond its limit starts a new one). */
export const pastRoundSchema = z.strictObject({
  round: int,
  snapshot: snapshotSchema,
  snapshotHash: z.string(),
  approvals: z.array(approvalSchema),
  endedAt: int,
});

export const requestRecordSchema = z.strictObject({
  /** Short human-typable id, e.g. R7K2QX. */
  id: z.string().min(1),
  kind: z.enum(REQUEST_KINDS),
  requester: z.string(),
  createdAt: int,
  updatedAt: int,
  state: z.enum(REQUEST_STATES),
  snapshot: snapshotSchema,
  snapshotHash: z.string().regex(/^[0-9a-f]{64}$/),
  round: int,
  roundStartedAt: int,
  /** The current round expires at this time if still waiting for approvals. */
  expiresAt: int,
  requiredApprovals: int,
  approvals: z.array(approvalSchema),
  /**
   * Who counted for which group of the rule at the last approval (domain/policy/count.ts), for the
   * message; counting itself always reads the groups as they are now.
   */
  tally: z.array(z.strictObject({ group: z.string(), count: int, by: z.array(z.string()) })).optional(),
  /**
   * Delegates who may approve now in place of an approver still awaited ("@Ben for @Ana"), until
   * their delegation ends, for the message (engine/approval/recount.ts).
   */
  actingDelegates: z.array(z.strictObject({ userId: z.string(), delegate: z.string(), until: int })).optional(),
  /** `countingHash` of the policy `tally` and `actingDelegates` were worked out with: a start under other groups works them out again. */
  talliedWith: z.string().optional(),
  /** Groups a limit of the policy added (`over: require`) because the request goes over it; with the rule's, the most of each group counts. */
  limitRequire: z
    .array(z.strictObject({ limit: z.string(), require: z.array(z.strictObject({ group: z.string(), count: int })) }))
    .optional(),
  pastRounds: z.array(pastRoundSchema),
  decision: verdictSchema.nullable(),
  execution: executionSchema.nullable(),
  remote: remoteStatusSchema.nullable(),
  result: remoteResultSchema.nullable(),
  failure: failureSchema.nullable(),
  pollingStoppedAt: int.nullable(),
  /** The nudges of the current approval round (engine/reminders/): when each DM reminder went out, and the expiry warning. */
  reminders: z.strictObject({ round: int, sentAt: z.array(int), expiryWarnedAt: int.optional() }).optional(),
});

type Common = Omit<z.infer<typeof requestRecordSchema>, 'state' | 'execution'>;
type Execution = z.infer<typeof executionSchema>;
/** Waiting for approvals, or ended before any (rejected, cancelled, expired): an execution only if carried from a round in doubt. */
export type WaitingRequest = Common & { state: Exclude<RequestState, ExecutedState>; execution: Execution | null };
/** Approved or past it: its execution is always there (the schema's check below and record.ts's `advance` refuse a record without it). */
export type ExecutedRequest<S extends ExecutedState = ExecutedState> = Common & { state: S; execution: Execution };
/** The stored request, a union by state: an approved, executing, unknown, submitted or final-after-approval request cannot lack its execution. */
export type RequestRecord = WaitingRequest | ExecutedRequest;

/** An approved request (or any state after it) carries its execution: the record's union by state, checked on every read. */
const checkedRequestSchema = requestRecordSchema.refine((r) => !isExecutedState(r.state) || r.execution !== null, {
  message: 'an approved request carries its execution',
  path: ['execution'],
});

/** The schema typed as the record it parses to, for openRepository's `schema` option (its input may be an older form). */
export const REQUEST_RECORD_SCHEMA = checkedRequestSchema as unknown as z.ZodType<RequestRecord>;
