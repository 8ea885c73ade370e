// Each Slack call the fake recorded folded into the workspace as Slack would show it. A call the desk cannot
// place, or one Slack refused, is kept in `undrawn`.
import type { FakeSlackCall } from '../../fake-slack/fake-slack-api.js';
import type { LocalDeskMessage } from '../protocol.js';
import type { ResponseOrigin, Workspace } from './workspace.js';

/** Calls that show nothing in Slack. */
const SILENT = new Set(['auth.test', 'users.info', 'conversations.open', 'chat.getPermalink']);

export function foldCall(ws: Workspace, call: FakeSlackCall): void {
  if (SILENT.has(call.method)) return;
  // The bot calls the Web API with its token; anything else on this machine that posts to the
  // stand-in is not the bot, and is not shown (response URLs carry no token: theirs are unguessable).
  if (call.method !== 'response_url' && (!call.authorized || call.tokenMatched === false)) return;
  const a = call.args;
  if (call.response.ok === false) {
    ws.cannotPlace(call.method, `Slack refused it: ${String(call.response.error)}`, whoseCall(ws, call));
    return;
  }
  switch (call.method) {
    case 'chat.postMessage': {
      const message = botMessage(String(call.response.channel ?? a.channel), String(call.response.ts), a, call.at);
      if (!ws.post(message))
        ws.cannotPlace(call.method, `a message in a channel the desk does not show (${message.channel}): ${gist(a)}`);
      return;
    }
    case 'chat.postEphemeral': {
      const message = {
        ...botMessage(String(a.channel), String(call.response.message_ts), a, call.at),
        ephemeral: true,
      };
      if (!ws.post(message, String(a.user)))
        ws.cannotPlace(
          call.method,
          `an answer in a channel the desk does not show (${message.channel}): ${gist(a)}`,
          String(a.user),
        );
      return;
    }
    case 'chat.update': {
      const key = ws.findMessage(String(a.channel), String(a.ts));
      if (!key || !ws.edit(key, content(a)))
        ws.cannotPlace(
          call.method,
          `an update of a message the desk never saw (${String(a.channel)} ${String(a.ts)}): ${gist(a)}`,
        );
      return;
    }
    case 'chat.delete': {
      const key = ws.findMessage(String(a.channel), String(a.ts));
      if (!key || !ws.remove(key))
        ws.cannotPlace(
          call.method,
          `a deletion of a message the desk never saw (${String(a.channel)} ${String(a.ts)})`,
        );
      return;
    }
    case 'response_url':
      return foldResponse(ws, call);
    case 'views.open':
    case 'views.push': {
      const person = ws.personOfTrigger(a.trigger_id);
      const view = call.response.view as Record<string, unknown>;
      if (person === undefined)
        return ws.cannotPlace(call.method, `a modal for a trigger the desk did not hand out: ${titleOf(view)}`);
      if (call.method === 'views.open') ws.openModal(person, view, call.seq);
      else ws.pushModal(person, view, call.seq);
      return;
    }
    case 'views.update': {
      const view = call.response.view as Record<string, unknown>;
      if (!ws.replaceView(String(view.id), view, call.seq))
        ws.cannotPlace(call.method, `an update of a view no one has open (${String(view.id)}): ${titleOf(view)}`);
      return;
    }
    case 'views.publish':
      return ws.publishHome(String(a.user_id), call.response.view as Record<string, unknown>);
    default:
      ws.cannotPlace(
        call.method,
        `the desk does not draw ${call.method} (arguments: ${Object.keys(a).join(', ') || 'none'})`,
      );
  }
}

/** Slack's default for a post without flags is a new message; the bot says replace_original false where it means one. */
function foldResponse(ws: Workspace, call: FakeSlackCall): void {
  const a = call.args;
  const origin = ws.responseOrigin(call.responseUrlId);
  // Its text is not shown: whoever posted it is not the bot.
  if (!origin) return ws.cannotPlace('response_url', 'a post to a response URL the desk did not hand out (not shown)');
  const target = origin.source ?? origin.last;
  if (a.delete_original === true || a.delete_original === 'true') {
    if (!target || !ws.remove(target))
      ws.cannotPlace('response_url', 'delete_original of a message the desk no longer has', origin.person);
    return;
  }
  if ((a.replace_original === true || a.replace_original === 'true') && target && ws.edit(target, content(a))) return;
  postAnswer(ws, origin, a, call.at);
}

/** A new message through a response URL or a command's HTTP answer: in the channel, or for its person only. */
export function postAnswer(ws: Workspace, origin: ResponseOrigin, a: Record<string, unknown>, at: number): void {
  const ts = ws.nextTs();
  const source = origin.source ? ws.message(origin.source) : undefined;
  const inChannel = a.response_type === 'in_channel';
  const message: LocalDeskMessage = {
    ...botMessage(origin.channel, ts, a, at),
    ...(source?.threadTs ? { threadTs: source.threadTs } : {}),
    ...(inChannel ? {} : { ephemeral: true }),
  };
  if (!ws.post(message, inChannel ? undefined : origin.person)) {
    ws.cannotPlace(
      'response_url',
      `an answer in a channel the desk does not show (${origin.channel}): ${gist(a)}`,
      origin.person,
    );
    return;
  }
  origin.last = ws.findMessage(message.channel, ts);
}

export function botMessage(channel: string, ts: string, a: Record<string, unknown>, at: number): LocalDeskMessage {
  return {
    channel,
    ts,
    ...(typeof a.thread_ts === 'string' && a.thread_ts ? { threadTs: a.thread_ts } : {}),
    ...content(a),
    author: { kind: 'bot' },
    at,
  };
}

function content(a: Record<string, unknown>): { text?: string; blocks?: unknown[] } {
  return {
    ...(typeof a.text === 'string' ? { text: a.text } : {}),
    ...(Array.isArray(a.blocks) ? { blocks: a.blocks } : {}),
  };
}

/** Whose screen a refused call was for, when the call says. */
function whoseCall(ws: Workspace, call: FakeSlackCall): string | undefined {
  const a = call.args;
  if (call.method === 'views.open' || call.method === 'views.push') return ws.personOfTrigger(a.trigger_id);
  if (call.method === 'chat.postEphemeral') return String(a.user);
  if (call.method === 'views.publish') return String(a.user_id);
  if (call.method === 'response_url') return ws.responseOrigin(call.responseUrlId)?.person;
  return typeof a.channel === 'string' ? ws.dmOwner(a.channel) : undefined;
}

function gist(a: Record<string, unknown>): string {
  const text =
    typeof a.text === 'string' ? a.text : Array.isArray(a.blocks) ? `${a.blocks.length} blocks` : '(no text)';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function titleOf(view: Record<string, unknown> | undefined): string {
  const title = (view?.title as { text?: unknown } | undefined)?.text;
  return typeof title === 'string' ? `"${title}"` : '(untitled view)';
}
