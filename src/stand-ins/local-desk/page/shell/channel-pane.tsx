// The open channel or DM: name, purpose, the message log (newest last, day dividers) and the message box.
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Channel } from '../../protocol.js';
import { Avatar } from './avatar.js';
import { channelLog, repliesOf } from './conversation.js';
import { useLocalDesk } from './local-desk.js';
import { UndrawnCalls } from './undrawn-calls.js';
import { Message } from './message.js';
import { MessageBox } from './message-box.js';
import { dayKey, dayLabel, postedSeconds } from './time.js';

/** How a channel is named: "#name", a DM by the bot's name. */
export const channelTitle = (c: Channel): string => (c.kind === 'dm' ? c.name : `#${c.name}`);

export function ChannelPane({ channel }: { channel: Channel }) {
  const desk = useLocalDesk();
  const messages = channelLog(desk.snapshot.messages, channel.id);
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const title = channelTitle(channel);
  const now = Date.now();

  // Stay at the newest message unless the person scrolled up to read.
  useLayoutEffect(() => {
    const el = log.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });
  useLayoutEffect(() => {
    pinned.current = true;
  }, [channel.id]);

  let lastDay = '';
  return (
    <>
      <header class="pane-header">
        {channel.kind === 'dm' && <Avatar id="bot" initials={desk.bot.initials} size={24} bot />}
        <h1>{title}</h1>
        {channel.purpose && <p class="purpose">{channel.purpose}</p>}
      </header>
      <UndrawnCalls />
      <div
        ref={log}
        role="log"
        aria-label={title}
        class="log"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {messages.length === 0 && <p class="empty">No messages in {title} yet.</p>}
        {messages.map((m) => {
          const day = dayKey(postedSeconds(m), desk.me.tz);
          const divider = day !== lastDay;
          lastDay = day;
          return (
            <div key={m.ts} class="log-entry">
              {divider && (
                <div class="day-divider" role="separator">
                  <span>{dayLabel(postedSeconds(m), desk.me.tz, now)}</span>
                </div>
              )}
              <Message message={m} replies={repliesOf(desk.snapshot.messages, channel.id, m.ts)} />
            </div>
          );
        })}
      </div>
      <MessageBox channel={channel.id} title={title} />
    </>
  );
}
