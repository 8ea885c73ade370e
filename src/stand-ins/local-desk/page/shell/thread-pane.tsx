/** A thread beside the channel: the parent message, then its replies. */
import { LABELS } from '../../protocol.js';
import { repliesOf } from './conversation.js';
import { useLocalDesk } from './local-desk.js';
import { Message } from './message.js';
import { channelTitle } from './channel-pane.js';

export function ThreadPane({ channel, ts, onClose }: { channel: string; ts: string; onClose: () => void }) {
  const desk = useLocalDesk();
  const parent = desk.snapshot.messages.find((m) => m.channel === channel && m.ts === ts);
  const replies = repliesOf(desk.snapshot.messages, channel, ts);
  const where = desk.snapshot.channels.find((c) => c.id === channel);
  return (
    <aside class="thread" aria-label={LABELS.thread}>
      <header class="pane-header">
        <h2>{LABELS.thread}</h2>
        {where && <span class="purpose">{channelTitle(where)}</span>}
        <button type="button" class="icon-button" aria-label="Close thread" onClick={onClose}>
          ×
        </button>
      </header>
      <div class="thread-body">
        {parent ? <Message message={parent} place="thread" /> : <p class="empty">This message is no longer here.</p>}
        <div class="reply-count" role="separator">
          <span>
            {replies.length} {replies.length === 1 ? 'reply' : 'replies'}
          </span>
        </div>
        {replies.map((m) => (
          <Message key={m.ts} message={m} place="thread" />
        ))}
      </div>
    </aside>
  );
}
