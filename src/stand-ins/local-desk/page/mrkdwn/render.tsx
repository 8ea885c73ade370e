/** The mrkdwn tree drawn as HTML, with the reader's names and time zone from the desk context. */
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { parseMrkdwn, type Inline, type MrkdwnBlock, type MrkdwnContext } from './parse.js';

export type Reader = Omit<MrkdwnContext, 'verbatim'>;

export const ReaderContext = createContext<Reader>({
  userName: () => undefined,
  channelName: () => undefined,
  timeZone: 'UTC',
  now: 0,
});

export function Mrkdwn({ text, verbatim }: { text: string; verbatim?: boolean }) {
  const reader = useContext(ReaderContext);
  const blocks = parseMrkdwn(text, { ...reader, now: reader.now || Date.now(), verbatim: verbatim === true });
  return <div class="mrkdwn">{blocks.map(block)}</div>;
}

function block(b: MrkdwnBlock, i: number) {
  switch (b.type) {
    case 'pre':
      return <pre key={i}>{b.text}</pre>;
    case 'quote':
      return <blockquote key={i}>{b.children.map(inline)}</blockquote>;
    case 'paragraph':
      return <p key={i}>{b.children.map(inline)}</p>;
  }
}

function inline(n: Inline, i: number): ComponentChildren {
  switch (n.type) {
    case 'text':
      return n.text;
    case 'break':
      return <br key={i} />;
    case 'bold':
      return <b key={i}>{n.children.map(inline)}</b>;
    case 'italic':
      return <i key={i}>{n.children.map(inline)}</i>;
    case 'strike':
      return <s key={i}>{n.children.map(inline)}</s>;
    case 'code':
      return <code key={i}>{n.text}</code>;
    case 'link':
      return (
        <a key={i} href={n.url} target="_blank" rel="noopener noreferrer">
          {n.text}
        </a>
      );
    case 'mention':
      return (
        <span key={i} class={`mention mention-${n.kind}`}>
          {n.text}
        </span>
      );
    case 'date': {
      const time = <time dateTime={n.iso}>{n.text}</time>;
      return n.url ? (
        <a key={i} href={n.url} target="_blank" rel="noopener noreferrer">
          {time}
        </a>
      ) : (
        <span key={i}>{time}</span>
      );
    }
    case 'emoji':
      return (
        <span key={i} class="emoji" title={`:${n.name}:`}>
          {n.char}
        </span>
      );
  }
}
