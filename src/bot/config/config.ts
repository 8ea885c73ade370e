import type { PolicyInput } from '../domain/policy.js';
// The bot's configuration as load-config.ts reads it. Every secret is a Secret, so printing a Config
// (or an error holding one) never shows a token or key.
import type { Secret } from '../exchange/secret.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface SlackConfig {
  botToken: Secret<string>;
  /** Required in HTTP mode (request signatures); Socket Mode needs none. */
  signingSecret: Secret<string> | undefined;
  appToken: Secret<string> | undefined;
  mode: 'http' | 'socket';
  /** Base of the Slack Web API, always ending with "/". */
  apiUrl: string;
  /** HTTP mode listening port (0: any free port). */
  port: number;
  /** HTTPS_PROXY: the bot's calls to Slack go through it, except to hosts NO_PROXY names. */
  proxy: SlackProxy | undefined;
}

export interface SlackProxy {
  /** May hold a user and password. */
  url: Secret<string>;
  /** NO_PROXY, as written (comma separated hosts or domains; * for all). */
  noProxy: string | undefined;
}

export interface DeskPeople {
  requesters: readonly string[];
  /** APPROVER_USER_IDS, or everyone in a group of the policy file. */
  approvers: readonly string[];
  /** Empty: nobody may submit counterparty declarations. */
  compliance: readonly string[];
}

export interface ApprovalSettings {
  /** Distinct approvals a request needs, never fewer than 2. */
  required: number;
  withdrawalExpiryMs: number;
  tradeExpiryMs: number;
  /** A quote expiring within this margin is treated as expired (re-quote first). */
  quoteSafetyMarginMs: number;
  /** How long after a send whose answer was lost the bot looks on its own before asking a person. */
  unknownSettleWindowMs: number;
}

/** Step-up approvals (issue 24): a one-time code on the approvals that matter. */
export interface StepUpConfig {
  /** STEP_UP_AT_LEAST: approving a request worth this many US dollars or more asks for a code. */
  atLeastUsd: string | undefined;
  /** STEP_UP_ENCRYPTION_KEY: seals the approvers' secrets at rest (AES-256-GCM); required once step-up is asked. */
  key: Secret<Uint8Array> | undefined;
}

/** The embedded sandbox exchange: EXCHANGE_BASE_URL unset. */
export interface SandboxExchangeConfig {
  kind: 'sandbox';
  rateLimitPerSecond: number;
}

/** A real exchange at EXCHANGE_BASE_URL with our key. */
export interface RemoteExchangeConfig {
  kind: 'remote';
  baseUrl: string;
  /** EXCHANGE_API_KEY when set; otherwise the signer derives it from the private key. */
  apiKey: string | undefined;
  privateKey: Secret<Uint8Array>;
  rateLimitPerSecond: number;
}

export type ExchangeConfig = SandboxExchangeConfig | RemoteExchangeConfig;

/** The PostgreSQL store, shared by every replica: DATABASE_URL set. */
export interface DatabaseConfig {
  url: Secret<string>;
  /** SINGLE_REPLICA=true: this bot is the only one on the database (it may run the embedded sandbox). */
  singleReplica: boolean;
}

/** What POLICY_FILE gives the policy (compliance and the kinds' default expiries come from the variables). */
export type PolicyFileInput = Required<Pick<PolicyInput, 'requesters' | 'groups' | 'rules' | 'source'>> &
  Pick<PolicyInput, 'limits' | 'destinations' | 'delegationForbiddenFor'>;

export interface Config {
  slack: SlackConfig;
  channels: {
    approval: string;
    /** Unset: the deposit watch does not post anywhere. */
    compliance: string | undefined;
  };
  users: DeskPeople;
  /** ADMIN_USER_IDS: may reset another person's step-up enrollment (empty: nobody). */
  admins: readonly string[];
  stepUp: StepUpConfig;
  approvals: ApprovalSettings;
  /** POLICY_FILE read and checked at start: the whole approval policy (the user variables are then unset). */
  policyFile: PolicyFileInput | undefined;
  exchange: ExchangeConfig;
  /** Absolute path of the store's directory (the file store: DATABASE_URL unset). */
  dataDir: string;
  /** Set: the PostgreSQL store instead of the files in dataDir. */
  database: DatabaseConfig | undefined;
  pollIntervalMs: number;
  logLevel: LogLevelName;
  /** /healthz, /readyz and /metrics, never on PORT (the port Slack reaches); unset: nowhere (0: any free port). */
  healthPort: number | undefined;
  /** The address the health port listens on (HEALTH_HOST, default 127.0.0.1: this machine only). */
  healthHost: string;
}
