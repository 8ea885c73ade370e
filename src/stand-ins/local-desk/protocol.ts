// What the local desk's page and server say to each other on loopback, defined once for both. The server
// folds the bot's Slack calls into each person's view; the page sends back actions, signed as Slack would.

/** Who the page lets you be: the preview desk's people, plus one who is none of them. */
export type Role = 'trader' | 'approver' | 'compliance' | 'outsider';

export interface Person {
  id: string;
  name: string;
  initials: string;
  role: Role;
  /** IANA time zone, for `<!date^…>` tokens. */
  tz: string;
}

export interface Channel {
  id: string;
  /** Without '#'; a DM's name is the bot's. */
  name: string;
  kind: 'channel' | 'dm';
  /** One line under the name: what the channel is for. */
  purpose: string;
}

/** One message as the viewer sees it (ephemeral ones only for whom they are). */
export interface LocalDeskMessage {
  channel: string;
  ts: string;
  /** Set on a reply: the parent's ts. */
  threadTs?: string;
  /** The notification text (fallback); may be the only content. */
  text?: string;
  /** Block Kit blocks exactly as sent. */
  blocks?: unknown[];
  /** "Only visible to you": set when the message is ephemeral (to the viewer). */
  ephemeral?: boolean;
  /** chat.update or replace_original changed it at least once. */
  edited?: boolean;
  /** When it was posted, epoch ms on the desk's clock (the sandbox's, in the preview). */
  at?: number;
  /** Who wrote it: the bot, or a person (the commands they typed are shown as Slack does not, for the story). */
  author: { kind: 'bot' } | { kind: 'person'; id: string };
}

/** A modal as the bot last sent it (views.open/push/update), with what Slack adds. */
export interface LocalDeskModal {
  id: string;
  hash: string;
  /** The view object: type, title, blocks, submit, close, callback_id, private_metadata … */
  view: Record<string, unknown>;
  /** Field errors from `response_action: errors`, by block_id. */
  errors?: Record<string, string>;
}

/** Sent whole on every change as server-sent `snapshot` events (GET ROUTES.events?as=<person>; no `as`: the cast's first). */
export interface Snapshot {
  /** Increases with every change the server folds in. */
  version: number;
  me: string;
  people: Person[];
  channels: Channel[];
  /** The channel the message box posts commands in. */
  commandChannel: string;
  messages: LocalDeskMessage[];
  /** The viewer's modal stack, bottom first (the last one is shown). */
  modals: LocalDeskModal[];
  /** The viewer's App Home view (views.publish), if the bot published one. */
  home?: Record<string, unknown>;
  /** What the bot sent that the server could not place (e.g. an unknown method), never dropped silently. */
  undrawn: { method: string; summary: string }[];
}

/** view.state.values: { [block_id]: { [action_id]: element state } }, as Slack sends it. */
export type StateValues = Record<string, Record<string, Record<string, unknown>>>;

export type ActionContainer =
  { type: 'message'; channel: string; ts: string } | { type: 'view'; viewId: string } | { type: 'home' };

/**
 * POST /desk/api/<name>, each with `as`. 200 with Answers; 400 a bad body or missing control; 409 a view or
 * message the person does not have; 503 while the bot starts. A line without "/" is posted, not sent.
 */
export interface Requests {
  /** A line typed in the message box: `/withdraw crypto`. */
  command: { as: string; channel: string; text: string };
  /** A button press, a select change, Enter in a dispatch_action input. `action` is the Block Kit action object Slack would send (action_id, block_id, type, value | selected_option | selected_options). */
  action: { as: string; container: ActionContainer; action: Record<string, unknown>; values?: StateValues };
  submit: { as: string; viewId: string; values: StateValues };
  /** Close (×, Cancel or Escape) of the top modal. */
  close: { as: string; viewId: string };
  /** Typing in an external_select. */
  suggest: { as: string; viewId: string; blockId: string; actionId: string; value: string };
  home: { as: string };
}

export interface Answers {
  command: Ack;
  action: Ack;
  /** `errors` when the bot answered response_action: errors (also folded into the modal). */
  submit: Ack & { errors?: Record<string, string> };
  close: Ack;
  /** Options as the bot answered (options or option_groups), unchanged. */
  suggest: Ack & { options?: unknown[]; option_groups?: unknown[] };
  home: Ack;
}

/** ok false: what went wrong in plain words (the bot's HTTP status, or a refused request). */
export type Ack = { ok: true } | { ok: false; error: string };

/** GET /desk/api/sandbox, and POST /desk/api/sandbox/<op> after the operation; errors 400 bad body, 422 refused by the sandbox. */
export interface SandboxState {
  /** Sandbox clock, epoch ms. */
  now: number;
  prices: { symbol: string; price: string }[];
  currencies: string[];
  /** The sandbox's active fault rules, each said in one line ("lost answer on POST /crypto/withdrawals, next 1"). */
  faults: string[];
}

/** The faults the panel offers, in a desk's words; the server maps each to the sandbox's fault rule. */
export const PANEL_FAULTS = {
  slow: 'Slow (4 s per answer)',
  hang: 'Hang (no answer until the bot gives up)',
  lost_answer: 'Lost answer (the exchange does it, the answer never arrives)',
  late_commit: 'Late commit (no answer now, done 15 s later on the sandbox clock)',
} as const;
export type PanelFault = keyof typeof PANEL_FAULTS;

/** Which exchange calls a panel fault hits. */
export const PANEL_FAULT_TARGETS = {
  withdrawals: 'Crypto and fiat withdrawals',
  orders: 'Orders (trades)',
  quotes: 'Quotes',
  any: 'Every call',
} as const;
export type PanelFaultTarget = keyof typeof PANEL_FAULT_TARGETS;

export interface SandboxOps {
  advance: { ms: number };
  deposit: { currency: string; amount: string; needsCounterpartyInfo: boolean };
  price: { symbol: string; price: string };
  /** `times` unset: until cleared. */
  fault: { fault: PanelFault; on: PanelFaultTarget; times?: number };
  'clear-faults': Record<string, never>;
}

/** The local desk's routes (one place, both sides import it). */
export const ROUTES = {
  page: '/',
  bundle: '/desk/app.js',
  styles: '/desk/app.css',
  events: '/desk/events',
  api: '/desk/api/',
  sandbox: '/desk/api/sandbox',
} as const;

/**
 * Accessible names of the page's own controls, which the browser tests find by role (Block Kit content is
 * named by its own text, as in Slack): act-as select, channels navigation, "#name" log, thread complementary,
 * message box, dialog by title, alertdialog for confirms, sandbox region.
 */
export const LABELS = {
  actAs: 'Act as',
  channels: 'Channels',
  home: 'Home',
  thread: 'Thread',
  onlyVisibleToYou: 'Only visible to you',
  sandbox: 'Sandbox',
  messageBox: (channelName: string) => `Message ${channelName}`,
} as const;
