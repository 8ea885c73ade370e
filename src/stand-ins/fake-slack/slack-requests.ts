// Signed Slack requests for Bolt's HTTP receiver, built as Slack sends them. Bolt 5 wants the exact form
// content type, refuses signatures older than 5 minutes (past only) with 401 and an empty body, and has
// no clock option: a stale request is signed with an old timestamp.
import { createHmac } from 'node:crypto';

export const FORM = 'application/x-www-form-urlencoded';

export interface SignOptions {
  /** Seconds since the epoch; default now. */
  timestampSec?: number;
  /** Replace the computed signature (forgery tests). */
  signature?: string;
  /** Leave the signature headers out entirely. */
  unsigned?: boolean;
  /** Slack's redelivery headers. */
  retry?: { num: number; reason?: string };
}

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}` with the signing secret. */
export function slackSignature(signingSecret: string, timestampSec: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${body}`).digest('hex')}`;
}

export function signedHeaders(
  signingSecret: string,
  body: string,
  contentType: string,
  opts: SignOptions = {},
): Record<string, string> {
  const ts = opts.timestampSec ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (!opts.unsigned) {
    headers['x-slack-request-timestamp'] = String(ts);
    headers['x-slack-signature'] = opts.signature ?? slackSignature(signingSecret, ts, body);
  }
  if (opts.retry) {
    headers['x-slack-retry-num'] = String(opts.retry.num);
    if (opts.retry.reason) headers['x-slack-retry-reason'] = opts.retry.reason;
  }
  return headers;
}

export interface SlackResponse {
  status: number;
  /** Raw body text (empty for a bare ack). */
  text: string;
  json: unknown;
  /** Milliseconds from sending to the full answer. */
  elapsedMs: number;
}

export const TEAM = { id: 'T0FAKE001', domain: 'fakedesk' };

export interface CommandInput {
  command: string;
  text?: string;
  userId: string;
  channelId?: string;
  /** Without '#' (default "desk"). */
  channelName?: string;
  responseUrl: string;
  triggerId?: string;
}

/** The form fields Slack posts for a slash command. */
export function commandBody(c: CommandInput): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: TEAM.id,
    team_domain: TEAM.domain,
    channel_id: c.channelId ?? 'C0DESK001',
    channel_name: c.channelName ?? 'desk',
    user_id: c.userId,
    user_name: c.userId.toLowerCase(),
    command: c.command,
    text: c.text ?? '',
    api_app_id: 'A0FAKE001',
    is_enterprise_install: 'false',
    response_url: c.responseUrl,
    trigger_id: c.triggerId ?? `trigger.${Date.now()}.${Math.random().toString(36).slice(2, 8)}`,
  }).toString();
}

export interface BlockActionInput {
  userId: string;
  actionId: string;
  blockId?: string;
  value?: string;
  /** For a select: the chosen option value. */
  selectedValue?: string;
  /** Where the button was: a message in a channel, or a view (modal or home). */
  container:
    | {
        type: 'message';
        channelId: string;
        messageTs: string;
        isEphemeral?: boolean;
        threadTs?: string;
        channelName?: string;
      }
    | { type: 'view'; viewId: string; view?: Record<string, unknown> };
  responseUrl?: string;
  triggerId?: string;
  /** The whole action object as Slack sends it (type, action_id, block_id, value | selected_option …); replaces the one built from the fields above. */
  action?: Record<string, unknown>;
  /** For a message: the message as Slack sends it (ts, text, blocks …). */
  message?: Record<string, unknown>;
  /** Input state of a message's blocks, or of the view (merged into view.state). */
  state?: StateValues;
}

export function blockActionPayload(a: BlockActionInput): Record<string, unknown> {
  const action: Record<string, unknown> = a.action ?? {
    action_id: a.actionId,
    block_id: a.blockId ?? 'block',
    action_ts: `${Date.now() / 1000}`,
    ...(a.selectedValue !== undefined
      ? {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: a.selectedValue }, value: a.selectedValue },
        }
      : {
          type: 'button',
          text: { type: 'plain_text', text: 'Button' },
          ...(a.value !== undefined ? { value: a.value } : {}),
        }),
  };
  const base = {
    type: 'block_actions',
    team: TEAM,
    user: { id: a.userId, username: a.userId.toLowerCase(), team_id: TEAM.id },
    api_app_id: 'A0FAKE001',
    token: 'deprecated-verification-token',
    trigger_id: a.triggerId ?? `trigger.${Date.now()}`,
    actions: [action],
  };
  if (a.container.type === 'message') {
    const { threadTs } = a.container;
    return {
      ...base,
      container: {
        type: 'message',
        message_ts: a.container.messageTs,
        channel_id: a.container.channelId,
        is_ephemeral: a.container.isEphemeral ?? false,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      },
      channel: { id: a.container.channelId, name: a.container.channelName ?? 'desk' },
      message: {
        ts: a.container.messageTs,
        type: 'message',
        ...(threadTs ? { thread_ts: threadTs } : {}),
        ...(a.message ?? {}),
      },
      ...(a.state ? { state: { values: a.state } } : {}),
      ...(a.responseUrl ? { response_url: a.responseUrl } : {}),
    };
  }
  const view: Record<string, unknown> = {
    id: a.container.viewId,
    type: 'modal',
    hash: 'h0',
    private_metadata: '',
    callback_id: '',
    ...(a.container.view ?? {}),
  };
  return {
    ...base,
    container: { type: 'view', view_id: a.container.viewId },
    view: { ...view, state: { values: a.state ?? (view.state as { values?: StateValues } | undefined)?.values ?? {} } },
  };
}

/** view.state.values shape: { [block_id]: { [action_id]: element state } }. */
export type StateValues = Record<string, Record<string, Record<string, unknown>>>;

export const stateOf = {
  text: (value: string | null) => ({ type: 'plain_text_input', value }),
  select: (value: string | null) => ({
    type: 'static_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
  }),
  radio: (value: string | null) => ({
    type: 'radio_buttons',
    selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
  }),
  external: (value: string | null) => ({
    type: 'external_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text: value }, value },
  }),
};

export interface ViewSubmissionInput {
  userId: string;
  callbackId: string;
  viewId?: string;
  privateMetadata?: string;
  values: StateValues;
  hash?: string;
  /** The whole view as Slack holds it (title, blocks, submit …); the fields above win over it. */
  view?: Record<string, unknown>;
  triggerId?: string;
}

export function viewSubmissionPayload(v: ViewSubmissionInput): Record<string, unknown> {
  return {
    type: 'view_submission',
    team: TEAM,
    user: { id: v.userId, username: v.userId.toLowerCase(), team_id: TEAM.id },
    api_app_id: 'A0FAKE001',
    token: 'deprecated-verification-token',
    trigger_id: v.triggerId ?? `trigger.${Date.now()}`,
    view: {
      ...(v.view ?? {}),
      id: v.viewId ?? 'V00000001',
      type: 'modal',
      callback_id: v.callbackId,
      private_metadata: v.privateMetadata ?? '',
      hash: v.hash ?? 'h1',
      state: { values: v.values },
    },
    response_urls: [],
  };
}

export interface BlockSuggestionInput {
  userId: string;
  actionId: string;
  blockId?: string;
  value: string;
  viewId?: string;
  callbackId?: string;
  /** The whole view as Slack holds it; id and callback_id above win over it. */
  view?: Record<string, unknown>;
}

/** What Slack posts to the options URL while someone types in an external_select. */
export function blockSuggestionPayload(s: BlockSuggestionInput): Record<string, unknown> {
  return {
    type: 'block_suggestion',
    team: TEAM,
    user: { id: s.userId, name: s.userId.toLowerCase(), team_id: TEAM.id },
    api_app_id: 'A0FAKE001',
    token: 'deprecated-verification-token',
    action_id: s.actionId,
    block_id: s.blockId ?? s.actionId,
    value: s.value,
    container: { type: 'view', view_id: s.viewId ?? 'V00000001' },
    view: {
      type: 'modal',
      private_metadata: '',
      state: { values: {} },
      ...(s.view ?? {}),
      id: s.viewId ?? 'V00000001',
      callback_id: s.callbackId ?? (s.view?.callback_id as string | undefined) ?? '',
    },
  };
}

export interface ViewClosedInput {
  userId: string;
  /** The view as Slack holds it (id, callback_id, private_metadata …). */
  view: Record<string, unknown>;
  /** True when the whole stack was closed at once. */
  isCleared?: boolean;
}

/** What Slack posts when someone closes a modal whose view asked for it (`notify_on_close`). */
export function viewClosedPayload(v: ViewClosedInput): Record<string, unknown> {
  return {
    type: 'view_closed',
    team: TEAM,
    user: { id: v.userId, username: v.userId.toLowerCase(), team_id: TEAM.id },
    api_app_id: 'A0FAKE001',
    token: 'deprecated-verification-token',
    view: v.view,
    is_cleared: v.isCleared ?? false,
  };
}

/** An Events API envelope around one event. */
export function eventCallback(event: Record<string, unknown>, eventId = `Ev${Date.now()}`): Record<string, unknown> {
  return {
    token: 'deprecated-verification-token',
    team_id: TEAM.id,
    api_app_id: 'A0FAKE001',
    event: { event_ts: `${Date.now() / 1000}`, ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM.id, user_id: 'U0BOT0001', is_bot: true, is_enterprise_install: false }],
  };
}

export function appHomeOpened(userId: string, tab: 'home' | 'messages' = 'home'): Record<string, unknown> {
  return eventCallback({ type: 'app_home_opened', user: userId, channel: `D${userId.slice(1)}`, tab });
}

/** Sends signed requests to one Bolt endpoint. */
export class SlackRequester {
  constructor(
    readonly endpoint: string,
    readonly signingSecret: string,
  ) {}

  /** Post a raw body with the given content type, signed unless told otherwise. */
  async post(body: string, contentType: string, opts: SignOptions = {}): Promise<SlackResponse> {
    const started = performance.now();
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: signedHeaders(this.signingSecret, body, contentType, opts),
      body,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, elapsedMs: performance.now() - started };
  }

  command(c: CommandInput, opts?: SignOptions): Promise<SlackResponse> {
    return this.post(commandBody(c), FORM, opts);
  }

  /** Any interaction payload (block_actions, view_submission, block_suggestion, …). */
  interaction(payload: Record<string, unknown>, opts?: SignOptions): Promise<SlackResponse> {
    return this.post(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), FORM, opts);
  }

  blockAction(a: BlockActionInput, opts?: SignOptions): Promise<SlackResponse> {
    return this.interaction(blockActionPayload(a), opts);
  }

  viewSubmission(v: ViewSubmissionInput, opts?: SignOptions): Promise<SlackResponse> {
    return this.interaction(viewSubmissionPayload(v), opts);
  }

  blockSuggestion(s: BlockSuggestionInput, opts?: SignOptions): Promise<SlackResponse> {
    return this.interaction(blockSuggestionPayload(s), opts);
  }

  event(envelope: Record<string, unknown>, opts?: SignOptions): Promise<SlackResponse> {
    return this.post(JSON.stringify(envelope), 'application/json', opts);
  }
}
