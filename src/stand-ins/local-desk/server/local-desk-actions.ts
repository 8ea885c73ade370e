// What a person does, sent to the bot as Slack would: signed, through its HTTP receiver, with a trigger id and
// response URL the desk handed out so answers land on that person's screen. A person acts only on what they see.
import type { FakeSlackApi } from '../../fake-slack/fake-slack-api.js';
import {
  appHomeOpened,
  commandBody,
  FORM,
  viewClosedPayload,
  type SlackRequester,
  type SlackResponse,
} from '../../fake-slack/slack-requests.js';
import type { Ack, Answers, Requests } from '../protocol.js';
import { findControl } from './block-controls.js';
import { foldCommandAnswer, foldSubmissionAnswer, foldTyped } from './fold-answers.js';
import type { Workspace } from './workspace.js';
import { escapeMentions } from './escape-mentions.js';

/** A request the page may not make (unknown person, a modal not open, a control not there): HTTP 400/409. */
export class LocalDeskRequestError extends Error {
  constructor(
    readonly status: 400 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** What of the fake Slack API the desk uses: response URLs, views from HTTP answers, the call count. */
export type SlackStandIn = Pick<FakeSlackApi, 'responseUrl' | 'recordView' | 'calls'>;

export interface LocalDeskActionsDeps {
  ws: Workspace;
  slack: SlackStandIn;
  bot: SlackRequester;
  /** The slash commands the bot has (others are refused as Slack refuses them). */
  commands: readonly string[];
  /** The commands with `should_escape` on: people named in them are sent as `<@U…|name>`, as Slack does. */
  escaped?: readonly string[];
}

export function createLocalDeskActions({ ws, slack, bot, commands, escaped = [] }: LocalDeskActionsDeps) {
  const person = (id: string): string => {
    if (!ws.isPerson(id)) throw new LocalDeskRequestError(400, `no one on this desk is ${id}`);
    return id;
  };
  const topModal = (as: string, viewId: string) => {
    const modal = ws.topModal(as, viewId);
    if (!modal) throw new LocalDeskRequestError(409, `view ${viewId} is not the modal ${as} has open`);
    return modal;
  };

  return {
    async command(r: Requests['command']): Promise<Answers['command']> {
      const as = person(r.as);
      if (!ws.canSeeChannel(as, r.channel)) throw new LocalDeskRequestError(400, `${as} has no channel ${r.channel}`);
      const line = r.text.trim();
      if (!line) throw new LocalDeskRequestError(400, 'nothing to send');
      const command = line.split(/\s+/, 1)[0]!;
      if (line.startsWith('/') && !commands.includes(command)) {
        return {
          ok: false,
          error: `${command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        };
      }
      foldTyped(ws, as, r.channel, line);
      // Plain text is a message in the channel; the bot listens to no messages.
      if (!line.startsWith('/')) return { ok: true };
      const origin = { person: as, channel: r.channel };
      const responseId = ws.mintResponse(origin);
      const rest = line.slice(command.length).trim();
      const channelName = ws.channelsOf(as).find((c) => c.id === r.channel)?.name ?? 'desk';
      const res = await bot.post(
        commandBody({
          command,
          text: escaped.includes(command) ? escapeMentions(rest, ws.cast.people) : rest,
          userId: as,
          channelId: r.channel,
          channelName,
          responseUrl: slack.responseUrl(responseId),
          triggerId: ws.mintTrigger(as),
        }),
        FORM,
      );
      if (res.status !== 200) return refused(res, command);
      foldCommandAnswer(ws, ws.responseOrigin(responseId) ?? origin, res.json);
      return { ok: true };
    },

    async action(r: Requests['action']): Promise<Answers['action']> {
      const as = person(r.as);
      const actionId = String(r.action.action_id ?? '');
      const { container } = r;
      if (container.type === 'message') {
        const key = ws.findMessage(container.channel, container.ts, as);
        const message = key ? ws.message(key) : undefined;
        if (!key || !message)
          throw new LocalDeskRequestError(409, `${as} sees no message ${container.ts} in ${container.channel}`);
        const action = slackAction(r.action, findControl(message.blocks, actionId), actionId);
        const responseId = ws.mintResponse({ person: as, channel: message.channel, source: key });
        const res = await bot.blockAction({
          userId: as,
          actionId,
          action,
          container: {
            type: 'message',
            channelId: message.channel,
            messageTs: message.ts,
            isEphemeral: message.ephemeral ?? false,
            ...(message.threadTs ? { threadTs: message.threadTs } : {}),
            channelName: ws.channelsOf(as).find((c) => c.id === message.channel)?.name ?? '',
          },
          message: {
            type: 'message',
            ts: message.ts,
            text: message.text ?? '',
            ...(message.blocks ? { blocks: message.blocks } : {}),
          },
          ...(r.values ? { state: r.values } : {}),
          responseUrl: slack.responseUrl(responseId),
          triggerId: ws.mintTrigger(as),
        });
        return res.status === 200 ? { ok: true } : refused(res, actionId);
      }
      const view = container.type === 'home' ? ws.homeOf(as) : topModal(as, container.viewId).view;
      if (!view) throw new LocalDeskRequestError(409, `${as} has no App Home yet`);
      const action = slackAction(r.action, findControl(view.blocks, actionId), actionId);
      const res = await bot.blockAction({
        userId: as,
        actionId,
        action,
        container: { type: 'view', viewId: String(view.id), view },
        ...(r.values ? { state: r.values } : {}),
        triggerId: ws.mintTrigger(as),
      });
      return res.status === 200 ? { ok: true } : refused(res, actionId);
    },

    async submit(r: Requests['submit']): Promise<Answers['submit']> {
      const as = person(r.as);
      const modal = topModal(as, r.viewId);
      const mark = slack.calls.length;
      const res = await bot.viewSubmission({
        userId: as,
        view: modal.view,
        viewId: modal.id,
        hash: modal.hash,
        callbackId: String(modal.view.callback_id ?? ''),
        privateMetadata: String(modal.view.private_metadata ?? ''),
        values: r.values,
        triggerId: ws.mintTrigger(as),
      });
      if (res.status !== 200) return refused(res, 'the submission');
      const { errors } = foldSubmissionAnswer(ws, slack, as, modal.id, res.json, mark);
      return errors ? { ok: true, errors } : { ok: true };
    },

    async close(r: Requests['close']): Promise<Answers['close']> {
      const as = person(r.as);
      const modal = topModal(as, r.viewId);
      // Slack closes it at once; the bot hears of it only when the view asked (notify_on_close).
      ws.closeTop(as);
      if (modal.view.notify_on_close !== true) return { ok: true };
      const res = await bot.interaction(viewClosedPayload({ userId: as, view: modal.view }));
      return res.status === 200 ? { ok: true } : refused(res, 'view_closed');
    },

    async suggest(r: Requests['suggest']): Promise<Answers['suggest']> {
      const as = person(r.as);
      const modal = topModal(as, r.viewId);
      if (!findControl(modal.view.blocks, r.actionId))
        throw new LocalDeskRequestError(400, `no control ${r.actionId} in view ${r.viewId}`);
      const res = await bot.blockSuggestion({
        userId: as,
        actionId: r.actionId,
        blockId: r.blockId,
        value: r.value,
        viewId: modal.id,
        view: modal.view,
      });
      if (res.status !== 200) return refused(res, 'the suggestions');
      const body = (res.json ?? {}) as { options?: unknown[]; option_groups?: unknown[] };
      return {
        ok: true,
        ...(Array.isArray(body.options) ? { options: body.options } : {}),
        ...(Array.isArray(body.option_groups) ? { option_groups: body.option_groups } : {}),
      };
    },

    async home(r: Requests['home']): Promise<Answers['home']> {
      const as = person(r.as);
      const res = await bot.event(appHomeOpened(as));
      return res.status === 200 ? { ok: true } : refused(res, 'app_home_opened');
    },
  };
}

export type LocalDeskActions = ReturnType<typeof createLocalDeskActions>;

/** The control's type, block_id and button text/value from the blocks; the person's choice from the page. */
function slackAction(
  sent: Record<string, unknown>,
  found: ReturnType<typeof findControl>,
  actionId: string,
): Record<string, unknown> {
  if (!found) throw new LocalDeskRequestError(400, `no control ${actionId} there`);
  const { element, blockId } = found;
  const fixed: Record<string, unknown> = {
    type: element.type,
    action_id: actionId,
    block_id: blockId ?? sent.block_id ?? 'block',
  };
  if (element.type === 'button') {
    fixed.text = element.text;
    if (element.value !== undefined) fixed.value = element.value;
    if (element.style !== undefined) fixed.style = element.style;
  }
  return { ...sent, ...fixed, action_ts: (Date.now() / 1000).toFixed(6) };
}

function refused(res: SlackResponse, what: string): Ack {
  return {
    ok: false,
    error: `the bot answered ${res.status} to ${what}${res.text ? `: ${res.text.slice(0, 200)}` : ''}`,
  };
}
