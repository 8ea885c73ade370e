// What reaches the desk other than by Web API call: a typed line, and the bot's HTTP answers to slash
// commands and view submissions.
import type { Workspace, ResponseOrigin } from './workspace.js';
import { postAnswer } from './fold-calls.js';

/** Where Slack keeps views: a view from an HTTP answer gets its id and hash there (FakeSlackApi.recordView). */
export interface ViewStore {
  recordView(view: Record<string, unknown>, id?: string): Record<string, unknown>;
}

/** A slash command shows only to its typist (Slack shows it to no one; kept so a person can follow); plain text to the channel. */
export function foldTyped(ws: Workspace, person: string, channel: string, text: string): void {
  const command = text.startsWith('/');
  ws.post(
    { channel, ts: ws.nextTs(), text, author: { kind: 'person', id: person }, at: ws.now() },
    command ? person : undefined,
  );
}

/** A slash command's HTTP answer: a message body is posted as Slack would (ephemeral unless in_channel). */
export function foldCommandAnswer(ws: Workspace, origin: ResponseOrigin, body: unknown): void {
  if (!isObject(body) || (typeof body.text !== 'string' && !Array.isArray(body.blocks))) return;
  postAnswer(ws, origin, body, ws.now());
}

/** A views.update of the view recorded after `sentAfterSeq` is newer than this answer, so the answer's view is not applied. Returns field errors. */
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
      const errors = Object.fromEntries(
        Object.entries(isObject(answer.errors) ? answer.errors : {}).map(([k, v]) => [k, String(v)]),
      );
      ws.setErrors(person, viewId, errors);
      return { errors };
    }
    case 'update':
      if (isObject(answer.view) && !ws.viewChangedAfter(viewId, sentAfterSeq))
        ws.replaceView(viewId, views.recordView(answer.view, viewId));
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
