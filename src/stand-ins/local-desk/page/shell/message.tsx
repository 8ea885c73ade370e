// One message as Slack shows it, with "Only visible to you", "(edited)" and the reply count that opens its thread.
import type { LocalDeskMessage } from '../../protocol.js';
import { LABELS } from '../../protocol.js';
import { Blocks } from '../blocks/blocks.js';
import { Mrkdwn } from '../mrkdwn/render.js';
import { Avatar } from './avatar.js';
import { useLocalDesk, type LocalDeskView } from './local-desk.js';
import { SurfaceHost } from './surface-host.js';
import { messageDateTime, messageTime, postedSeconds } from './time.js';

export interface MessageProps {
  message: LocalDeskMessage;
  replies?: LocalDeskMessage[];
  /** Where it is drawn: a thread's parent is also in the channel, and ids must stay unique. */
  place?: 'log' | 'thread';
}

export function Message({ message, replies = [], place = 'log' }: MessageProps) {
  const desk = useLocalDesk();
  const now = Date.now();
  const author = authorOf(message, desk);
  const surfaceKey = `msg-${message.channel}-${message.ts}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const id = `${place}-${surfaceKey}`;
  const last = replies[replies.length - 1];
  return (
    <article class={`message${message.ephemeral ? ' ephemeral' : ''}`} aria-labelledby={`${id}-author ${id}-time`}>
      <Avatar id={author.id} initials={author.initials} bot={author.bot} />
      <div class="message-main">
        {message.ephemeral && (
          <div class="ephemeral-note">
            <span aria-hidden="true">👁 </span>
            {LABELS.onlyVisibleToYou}
          </div>
        )}
        <div class="message-meta">
          <span id={`${id}-author`} class="author">
            {author.name}
          </span>
          {author.bot && <span class="app-badge">APP</span>}
          <time
            id={`${id}-time`}
            class="message-time"
            dateTime={new Date(postedSeconds(message) * 1000).toISOString()}
            title={messageDateTime(postedSeconds(message), desk.me.tz, now)}
          >
            {messageTime(postedSeconds(message), desk.me.tz, now)}
          </time>
        </div>
        <SurfaceHost
          surfaceKey={surfaceKey}
          idPrefix={id}
          container={{ type: 'message', channel: message.channel, ts: message.ts }}
          blocks={message.blocks ?? []}
        >
          <MessageBody message={message} />
        </SurfaceHost>
        {message.edited && <span class="edited">(edited)</span>}
        {replies.length > 0 && (
          <div class="replies-row">
            <button type="button" class="replies" onClick={() => desk.openThread(message.channel, message.ts)}>
              {replies.length} {replies.length === 1 ? 'reply' : 'replies'}
            </button>
            {last && <span class="last-reply">Last reply {messageTime(postedSeconds(last), desk.me.tz, now)}</span>}
          </div>
        )}
      </div>
    </article>
  );
}

function MessageBody({ message }: { message: LocalDeskMessage }) {
  // What a person typed is shown as typed; the bot's words are mrkdwn, its blocks Block Kit.
  if (message.author.kind === 'person') return <p class="typed">{message.text}</p>;
  if (message.blocks && message.blocks.length > 0) return <Blocks blocks={message.blocks} />;
  return <Mrkdwn text={message.text ?? ''} />;
}

function authorOf(
  message: LocalDeskMessage,
  desk: LocalDeskView,
): { id: string; name: string; initials: string; bot: boolean } {
  if (message.author.kind === 'bot') return { id: 'bot', name: desk.bot.name, initials: desk.bot.initials, bot: true };
  const personId = message.author.id;
  const person = desk.snapshot.people.find((p) => p.id === personId);
  return { id: personId, name: person?.name ?? personId, initials: person?.initials ?? '?', bot: false };
}
