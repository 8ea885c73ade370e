// The bot's Slack calls and answers as "what a person sees, where": posts, thread replies, updates (what
// changed), ephemerals, DMs, modals. Calls nobody sees are left out.
import type { FakeSlackCall } from '../fake-slack/fake-slack-api.js';
import type { SlackResponse } from '../fake-slack/slack-requests.js';
import { BLOCK } from '../../bot/slack/kit/slack-ids.js';
import { isObject, renderMessage, renderView, viewTitle, type FilledValues, type RenderContext } from './render.js';

export interface Seen {
  heading: string;
  body: string[];
}

/** The repeated SANDBOX banner is said once at the top of the transcript, not on every post. */
const HIDDEN_BLOCKS: ReadonlySet<string> = new Set([BLOCK.sandboxBanner]);
const INVISIBLE = new Set(['auth.test', 'users.info', 'chat.getPermalink', 'views.publish']);

/** What a person does next: whose response_url and trigger the bot answers to. */
export interface Actor {
  userId: string;
}

type Shown =
  { kind: 'message'; seen: Seen } | { kind: 'view'; viewId: string; owner: string; view: Record<string, unknown> };

export class Screens {
  /** Last rendering of each message, by "channel ts", to show an update as what changed. */
  readonly #messages = new Map<string, string[]>();
  /** Modal owners, by view id (views.update does not say whose screen it is on). */
  readonly #viewOwners = new Map<string, string>();

  constructor(readonly ctx: RenderContext) {}

  #name(userId: string): string {
    return this.ctx.names.get(userId) ?? userId;
  }

  #channel(id: string): string {
    return `#${this.ctx.channels.get(id) ?? id}`;
  }

  /** The person a DM channel ("D" + id without its first letter) or a user-id channel belongs to. */
  #dmOwner(channel: string): string | undefined {
    for (const id of this.ctx.names.keys()) if (channel === id || channel === `D${id.slice(1)}`) return id;
    return undefined;
  }

  /** A response_url id for `userId`'s next action: the answers to it are theirs alone. */
  static responseId(userId: string, n: number): string {
    return `${userId}.${n}`;
  }

  /** Everything `actor`'s action made visible: the body Slack got back, then the calls in order. */
  seen(
    actor: Actor,
    ack: SlackResponse | undefined,
    calls: readonly FakeSlackCall[],
    o: { viewId?: string; filled?: FilledValues } = {},
  ): Seen[] {
    const shown: Shown[] = [];
    if (ack) shown.push(...this.#fromAck(actor, ack, o.viewId));
    for (const call of calls) shown.push(...this.#fromCall(actor, call));
    // A modal changed several times during one action is shown once, as it ended; the earlier
    // states as their first line ("⏳ Loading…").
    const lastOfView = new Map<string, number>();
    shown.forEach((s, i) => s.kind === 'view' && lastOfView.set(s.viewId, i));
    return shown.map((s, i) => {
      if (s.kind === 'message') return s.seen;
      const lines = renderView(s.view, this.ctx, o.filled, HIDDEN_BLOCKS);
      const heading = `${this.#name(s.owner)}'s modal: ${viewTitle(s.view, this.ctx)}`;
      return { heading, body: lastOfView.get(s.viewId) === i ? lines : [lines.find((l) => l.trim() !== '') ?? ''] };
    });
  }

  #fromAck(actor: Actor, ack: SlackResponse, viewId: string | undefined): Shown[] {
    const body = ack.json;
    if (!isObject(body)) return [];
    if (body.response_action === 'update' && isObject(body.view))
      return [{ kind: 'view', viewId: viewId ?? 'submitted', owner: actor.userId, view: body.view }];
    if (body.response_action === 'errors' && isObject(body.errors)) {
      return [
        {
          kind: 'message',
          seen: {
            heading: `${this.#name(actor.userId)}'s modal: errors`,
            body: Object.entries(body.errors).map(([field, e]) => `${field}: ${String(e)}`),
          },
        },
      ];
    }
    if (typeof body.text === 'string' || Array.isArray(body.blocks)) {
      return [
        {
          kind: 'message',
          seen: {
            heading: `${this.#name(actor.userId)} (only you)`,
            body: renderMessage(body, this.ctx, HIDDEN_BLOCKS),
          },
        },
      ];
    }
    return [];
  }

  #fromCall(actor: Actor, call: FakeSlackCall): Shown[] {
    if (INVISIBLE.has(call.method) || call.response.ok === false) return [];
    const a = call.args;
    switch (call.method) {
      case 'chat.postMessage': {
        const channel = String(call.response.channel ?? a.channel);
        const lines = this.#render(a);
        this.#messages.set(`${channel} ${String(call.response.ts)}`, lines);
        const dm = this.#dmOwner(channel);
        const heading = dm
          ? `DM to ${this.#name(dm)}`
          : a.thread_ts
            ? `thread in ${this.#channel(channel)}`
            : `${this.#channel(channel)} · everyone`;
        return [{ kind: 'message', seen: { heading, body: lines } }];
      }
      case 'chat.update': {
        const key = `${String(a.channel)} ${String(a.ts)}`;
        const before = this.#messages.get(key) ?? [];
        const after = this.#render(a);
        this.#messages.set(key, after);
        const body = changedLines(before, after);
        // Named by its header, since several messages in a channel get updated over the story.
        const title = (after.find((l) => l.startsWith('▌')) ?? before.find((l) => l.startsWith('▌')))?.slice(1);
        const heading = `${this.#channel(String(a.channel))} · ${title ? `"${cut(title, 48)}"` : 'a message'} updated`;
        return body.length === 0 ? [] : [{ kind: 'message', seen: { heading, body } }];
      }
      case 'chat.postEphemeral':
        return [
          { kind: 'message', seen: { heading: `${this.#name(String(a.user))} (only you)`, body: this.#render(a) } },
        ];
      case 'response_url': {
        const owner = (call.responseUrlId ?? '').split('.')[0] ?? actor.userId;
        if (a.delete_original)
          return [
            {
              kind: 'message',
              seen: { heading: `${this.#name(owner)} (only you)`, body: ['(the message is removed)'] },
            },
          ];
        return [{ kind: 'message', seen: { heading: `${this.#name(owner)} (only you)`, body: this.#render(a) } }];
      }
      case 'views.open':
      case 'views.push': {
        const view = isObject(call.response.view) ? call.response.view : isObject(a.view) ? a.view : {};
        const viewId = String(view.id ?? `${call.seq}`);
        this.#viewOwners.set(viewId, actor.userId);
        return [{ kind: 'view', viewId, owner: actor.userId, view }];
      }
      case 'views.update': {
        const viewId = String(a.view_id ?? '');
        const view = isObject(a.view) ? a.view : {};
        return [{ kind: 'view', viewId, owner: this.#viewOwners.get(viewId) ?? actor.userId, view }];
      }
      default:
        return [{ kind: 'message', seen: { heading: `(${call.method})`, body: this.#render(a) } }];
    }
  }

  #render(args: Record<string, unknown>): string[] {
    const lines = renderMessage(args, this.ctx, HIDDEN_BLOCKS);
    // Text-only posts carry the banner as a prefix; the transcript says SANDBOX once.
    return lines.map((l, i) => (i === 0 ? l.replace(/^\[SANDBOX\]\s*/, '') : l));
  }
}

const cut = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The lines of `after` that `before` did not have, and a note when the buttons went away. */
export function changedLines(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const l of before) left.set(l, (left.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of after) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else added.push(l);
  }
  const hadButtons = before.some((l) => l.includes('[Approve]'));
  const hasButtons = after.some((l) => l.includes('[Approve]'));
  if (hadButtons && !hasButtons) added.push('(the Approve / Reject / Cancel buttons are gone)');
  return added;
}
