/**
 * The stored form of a request record, checked by the durable store on load and before every
 * write (openRepository's `schema`). Kept identical to domain/record.ts's DeskRequest by the
 * type-level check at the bottom: change one without the other and the build fails.
 */
import { z } from 'zod';
import { REMOTE_RESULT_FIELDS, type DeskRequest, type RemoteResultField } from '../domain/record.js';
import { REQUEST_KINDS } from '../domain/request.js';
import { REQUEST_STATES } from '../domain/state-machine.js';

/** Written into the live file; any other version found on load stops the bot (see store/). */
export const DESK_REQUEST_VERSION = 1;
/** File stem of the request repository in the data folder. */
export const DESK_REQUEST_STORE_NAME = 'requests';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const int = z.number().int();
const nullableString = z.string().nullable();

/**
 * Records written before the exchange port spoke the engine's terms kept the result under the
 * exchange's field names: read them under the new ones (written back so on the record's next write).
 */
const RESULT_FIELDS_BEFORE: Record<string, RemoteResultField> = {
  order_receipt_id: 'receiptId',
  fee_currency: 'feeCurrency',
  net_amount: 'netAmount',
  received_currency: 'receivedCurrency',
  cancel_reason: 'cancelReason',
  bank_reference: 'bankReference',
};
const remoteResult = z.preprocess(
  (value) => (value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [RESULT_FIELDS_BEFORE[k] ?? k, v])) : value),
  z.strictObject(Object.fromEntries(REMOTE_RESULT_FIELDS.map((f) => [f, nullableString.optional()])) as Record<RemoteResultField, z.ZodOptional<z.ZodNullable<z.ZodString>>>),
);

const quote = z.strictObject({ quoteId: z.string(), price: decimal, expiresAt: int });
const bankAccount = z.strictObject({ id: int, currency: nullableString, display: z.string(), accountNumberDigest: z.string().regex(/^[0-9a-f]{64}$/).optional() });

const snapshot = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('crypto_withdrawal'),
    cryptoCurrencyId: int,
    asset: z.string(),
    network: z.string(),
    precision: int,
    amount: decimal,
    fee: decimal,
    total: decimal,
    destination: z.strictObject({ id: z.string(), label: z.string(), address: z.string(), addressTag: nullableString }),
    note: nullableString,
    purpose: nullableString,
  }),
  z.strictObject({ kind: z.literal('fiat_withdrawal'), currency: z.string(), bankAccount, amount: decimal, fee: decimal, total: decimal, note: nullableString }),
  z.strictObject({
    kind: z.literal('trade'),
    symbol: z.string(),
    side: z.enum(['buy', 'sell']),
    quantity: decimal,
    quantityCurrency: nullableString,
    paymentMethod: z.string(),
    limitPrice: decimal,
    slippageBps: int.nullable(),
    quote,
    note: nullableString,
  }),
  z.strictObject({ kind: z.literal('bank_account_removal'), bankAccount, note: nullableString }),
]);

const approval = z.strictObject({ userId: z.string(), at: int, snapshotHash: z.string() });

const attempt = z.strictObject({
  key: z.string(),
  startedAt: int,
  quote: quote.nullable(),
  outcome: z.enum(['in_flight', 'submitted', 'refused', 'unknown', 'duplicate', 'quote_unusable', 'reconciled', 'completed']),
  message: nullableString,
  endedAt: int.nullable(),
});

const candidate = z.strictObject({ exchangeId: z.string(), createdAt: int, amount: z.string(), status: z.string(), requestId: nullableString, destination: nullableString });

const inDoubt = z.strictObject({
  since: int,
  window: z.strictObject({ from: int, to: int }),
  settleUntil: int,
  looks: int,
  lastLookAt: int.nullable(),
  nextLookAt: int,
  question: z.strictObject({ askedAt: int, kind: z.enum(['not_found', 'ambiguous']), candidates: z.array(candidate) }).nullable(),
  excluded: z.array(z.string()),
});

const personDecision = z.strictObject({
  by: z.string(),
  at: int,
  action: z.enum(['look_again', 'send_again', 'mark_not_sent', 'choose']),
  exchangeId: nullableString,
  checked: nullableString,
});

const execution = z.strictObject({
  approvedAt: int,
  scheduledAt: int.nullable(),
  scheduleReason: nullableString,
  attempts: z.array(attempt),
  unusableRequotes: int,
  exchangeId: nullableString,
  submittedAt: int.nullable(),
  unknownSince: int.nullable(),
  // Added after version 1 was written: records stored before read as "none yet".
  inDoubt: inDoubt.nullable().default(null),
  clockOffsetMs: int.nullable().default(null),
  decisions: z.array(personDecision).default([]),
  retry: z.strictObject({ nextAt: int, failures: int }).nullable().default(null),
});

const remote = z.strictObject({
  status: nullableString,
  travelRuleStatus: nullableString,
  pendingReason: nullableString,
  transactionHash: nullableString,
  linkExplorer: nullableString,
});

export const deskRequestSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(REQUEST_KINDS),
  requester: z.string(),
  createdAt: int,
  updatedAt: int,
  state: z.enum(REQUEST_STATES),
  snapshot,
  snapshotHash: z.string().regex(/^[0-9a-f]{64}$/),
  round: int,
  roundStartedAt: int,
  expiresAt: int,
  requiredApprovals: int,
  approvals: z.array(approval),
  pastRounds: z.array(z.strictObject({ round: int, snapshot, snapshotHash: z.string(), approvals: z.array(approval), endedAt: int })),
  decision: z.strictObject({ by: z.string(), at: int, reason: nullableString }).nullable(),
  execution: execution.nullable(),
  remote: remote.nullable(),
  result: remoteResult.nullable(),
  failure: z.strictObject({ stage: z.enum(['checks', 'quote', 'exchange', 'final_status', 'reconcile']), reason: z.string(), exchangeMessage: nullableString }).nullable(),
  pollingStoppedAt: int.nullable(),
});

// Both directions: the schema accepts every DeskRequest, and parses to nothing else.
type Stored = z.infer<typeof deskRequestSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<Stored, DeskRequest> = true;
void sameShape;

/** The schema typed as the domain record, for openRepository's `schema` option. */
export const DESK_REQUEST_SCHEMA = deskRequestSchema as unknown as z.ZodType<DeskRequest>;
