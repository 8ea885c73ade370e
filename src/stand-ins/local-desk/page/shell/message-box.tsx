// The message box: a slash command goes to the bot as Slack sends it (the server signs it); anything else
// is not sent, as the bot only listens to commands.
import { useRef, useState } from 'preact/hooks';
import { LABELS } from '../../protocol.js';
import { send } from '../live/api.js';
import { useLocalDesk } from './local-desk.js';

const COMMANDS = [
  { name: '/withdraw', example: '/withdraw crypto' },
  { name: '/trade', example: '/trade' },
  { name: '/balances', example: '/balances' },
  { name: '/desk', example: '/desk help' },
  { name: '/counterparty', example: '/counterparty' },
];

export function MessageBox({ channel, title }: { channel: string; title: string }) {
  const desk = useLocalDesk();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const label = LABELS.messageBox(title);

  const submit = async () => {
    const line = text.trim();
    if (!line) return;
    if (!line.startsWith('/')) {
      setError('Only slash commands reach the bot here: /withdraw, /trade, /balances, /desk help, /counterparty.');
      return;
    }
    setBusy(true);
    setError(undefined);
    const ack = await send('command', { as: desk.me.id, channel, text: line });
    setBusy(false);
    if (ack.ok) setText('');
    else setError(ack.error);
  };

  const fill = (example: string) => {
    setText(`${example} `);
    box.current?.focus();
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div class={`composer-box${busy ? ' busy' : ''}`}>
        <textarea
          ref={box}
          rows={1}
          aria-label={label}
          placeholder={label}
          value={text}
          aria-describedby={error ? 'composer-error' : undefined}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <div class="composer-tools">
          {COMMANDS.map((c) => (
            <button type="button" class="command-chip" key={c.name} onClick={() => fill(c.example)}>
              {c.name}
            </button>
          ))}
          <button type="submit" class="send" disabled={busy || !text.trim()}>
            Send
          </button>
        </div>
      </div>
      {error && (
        <div id="composer-error" class="action-error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
