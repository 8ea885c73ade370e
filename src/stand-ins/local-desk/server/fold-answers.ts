/**
 * What reaches the desk by other ways than a Web API call: the line a person typed, and the
 * bot's HTTP answers to a slash command (an ephemeral or in-channel message) and to a view
 * submission (`response_action` update, push, clear or errors; nothing closes the view).
 */
import type { Workspace, ResponseOrigin } from './workspace.js';
import { postAnswer } from './fold-calls.js';

/** Where Slack keeps views: a view from an HTTP answer gets its id and hash there (FakeSlackApi.recordView). */
export interface ViewStore {
  recordView(view: Record<string, unknown>, id?: string): Record<string, unknown>;
}

/**
 * A line typed in the message box, shown as the person's message. A slash command only to them
 * (Slack shows it to no one; the desk keeps it so a person can follow what they did); plain text
 * to everyone who sees the channel, as Slack posts it.
 */
export function foldTyped(ws: Workspace, person: string, channel: string, text: string): void {
  const command = text.startsWith('/');
  ws.post({ channel, ts: ws.nextTs(), text, author: { kind: 'person', id: person }, at: ws.now() }, command ? person : undefined);
}

/** A slash command's HTTP answer: a message body is posted as Slack would (ephemeral unless in_channel). */
export function foldCommandAnswer(ws: Workspace, origin: ResponseOrigin, body: unknown): void {
  if (!isObject(body) || (typeof body.text !== 'string' && !Array.isArray(body.blocks))) return;
  postAnswer(ws, origin, body, ws.now());
}

/**
 * A view submission's HTTP answer, for `person`'s view `viewId`. `sentAfterSeq`: the last Slack
 * call recorded before the submission was sent; a views.update of the same view recorded after it
 * is newer than this answer (the bot goes on after its ack), so the answer's view is not applied.
 * Returns the field errors, if the bot answered with errors.
 */
export function foldSubmissionAnswer(
  ws: Workspace,
  views: ViewStore,
  person: string,
  viewId: string,
  body: unknown,
  sentAfterSeq: number,
): { errors?: Record<string, string> } {
  const answer = isObject(body) ? body : {};
  switch (answer.response_action) {
    case 'errors': {
      const errors = Object.fromEntries(Object.entries(isObject(answer.errors) ? answer.errors : {}).map(([k, v]) => [k, String(v)]));
      ws.setErrors(person, viewId, errors);
      return { errors };
    }
    case 'update':
      if (isObject(answer.view) && !ws.viewChangedAfter(viewId, sentAfterSeq)) ws.replaceView(viewId, views.recordView(answer.view, viewId));
      return {};
    case 'push':
      if (isObject(answer.view)) ws.pushModal(person, views.recordView(answer.view));
      return {};
    case 'clear':
      ws.clearModals(person);
      return {};
    default:
      // An empty answer closes the submitted view; the one under it shows again.
      if (ws.topModal(person, viewId)) ws.closeTop(person);
      return {};
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
