/**
 * What every listener gets: the configuration, the ports it may use, and who is who on the desk.
 * Built once in slack-app.ts and handed to the listener factories in registrations.ts.
 */
import { isApprover, isCompliance, isDeskMember, mayRequest, type Policy } from '../../domain/policy.js';
import type { AllMiddlewareArgs, Logger } from '@slack/bolt';
import type { Config } from '../../config/config.js';
import type { AuditLog, KeyValueStore } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { ExchangePort } from '../../ports/exchange-port.js';
import type { ExchangeListings } from '../../ports/exchange-listings.js';
import type { Engine } from '../../engine/engine.js';
import type { RequestReads } from '../../engine/request-reads.js';
import type { Declarations } from '../../engine/compliance/declare.js';
import type { CodeVerdict, ConfirmOutcome, Enrollment } from '../../domain/step-up/attempts.js';

/** Bolt's Web API client as listeners receive it. */
export type SlackClient = AllMiddlewareArgs['client'];

/** What listeners ask of App Home; home/homes.ts implements it (kit names no feature). */
export interface HomeTabs {
  /** The user opened the tab: remember them, and publish theirs. */
  opened(userId: string, client: SlackClient): Promise<void>;
  /** Publish again for a user who has the tab; failures are logged, never thrown. */
  refresh(userId: string, client?: SlackClient): Promise<void>;
}

/** The approvers' second factor (issue 24); step-up/step-ups.ts implements it. */
export interface StepUps {
  /** False without STEP_UP_ENCRYPTION_KEY: nothing can be enrolled or checked. */
  readonly configured: boolean;
  enrolled(userId: string): Promise<boolean>;
  /** A fresh secret, stored sealed as the user's pending one (replacing any earlier pending one). */
  begin(userId: string, account: string): Promise<Enrollment>;
  /** The pending secret becomes the enrollment if `first` is its code (and `current` the old one's, when replacing). */
  confirm(userId: string, first: string, current: string | undefined): Promise<ConfirmOutcome>;
  /** Judges `code` for an approval of `requestId`; the verdict, or not enrolled. */
  check(userId: string, code: string, requestId: string): Promise<CodeVerdict | { kind: 'not_enrolled' }>;
  /**
   * Removes `userId`'s enrollment (and pending one), audited. `removed` when there was one: then the
   * person's DM is queued in the durable outbox (`noticeQueued` false: that write failed, logged).
   */
  reset(adminId: string, userId: string): Promise<{ removed: boolean; noticeQueued: boolean }>;
}

/**
 * Everything the listeners use, built by the composition root (runtime/compose.ts) before the app
 * exists: nothing is optional and nothing is wired later.
 */
export interface SlackDeps {
  /** Who may request, approve and declare (domain/policy.ts). */
  policy: Policy;
  /** Read-only use here (balances, lookups for the forms, wallet search); writes go through the approval engine. */
  exchange: ExchangePort;
  /** The `/desk` listings: the exchange's records as it lists them. */
  listings: ExchangeListings;
  clock: Clock;
  /** The approval engine: its commands, its reads, and indicative quotes for the trade form. */
  engine: RequestCommands;
  /** App Home: who has it open, and publishing it again after a change. */
  homes: HomeTabs;
  /** The counterparty declaration use case (engine/compliance/declare.ts). */
  declarations: Declarations;
  /** Pairs the desk trades, e.g. ["BTC-SGD"]; empty: any well-formed pair. */
  tradePairs: readonly string[];
  /** Where refused attempts the issues ask to audit are recorded (e.g. a counterparty declaration by a non-officer). */
  audit: AuditLog;
  /**
   * Durable small values shared by every replica: open modals' data (modal-data.ts), the dedupe
   * tokens of submitted forms (request-forms/submission-markers.ts), message references, App Home viewers.
   */
  kv: KeyValueStore;
  /** One-time codes on the approvals that need them (issue 24): enrollment, checks, resets. */
  stepUps: StepUps;
}

/** What the Slack layer asks of the approval engine. */
export type RequestCommands = Pick<
  Engine,
  'request' | 'approve' | 'reject' | 'cancel' | 'settle' | 'indicativeQuote' | 'delegations'
> &
  RequestReads;

/** The terms of a quote as the engine takes them (ports/exchange-port.ts QuoteTerms). */
export interface QuoteTermsView {
  symbol: string;
  side: 'buy' | 'sell';
  quantity: string;
  quantityCurrency: string | null;
  paymentMethod: string;
}

export interface Roles {
  isRequester(userId: string): boolean;
  isApprover(userId: string): boolean;
  isCompliance(userId: string): boolean;
  /** Requester, approver or compliance: may read balances and records. */
  isDeskMember(userId: string): boolean;
}

export interface SlackContext {
  config: Config;
  deps: SlackDeps;
  roles: Roles;
  /** The embedded sandbox exchange: every post carries a SANDBOX banner. */
  sandbox: boolean;
  logger: Logger;
}

/** The listeners' view of who is who: the policy's answers, never a second list. */
export function rolesOf(policy: Policy): Roles {
  return {
    isRequester: (u) => mayRequest(policy, u),
    isApprover: (u) => isApprover(policy, u),
    isCompliance: (u) => isCompliance(policy, u),
    isDeskMember: (u) => isDeskMember(policy, u),
  };
}
