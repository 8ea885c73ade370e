// App Home: opening it tells the bot (app_home_opened, as Slack does); the view it published is drawn here.
import { useEffect, useState } from 'preact/hooks';
import { LABELS } from '../../protocol.js';
import { send } from '../live/api.js';
import { Blocks } from '../blocks/blocks.js';
import { Avatar } from './avatar.js';
import { useLocalDesk } from './local-desk.js';
import { UndrawnCalls } from './undrawn-calls.js';
import { SurfaceHost } from './surface-host.js';

export function HomePane() {
  const desk = useLocalDesk();
  const [error, setError] = useState<string>();
  const me = desk.me.id;
  useEffect(() => {
    setError(undefined);
    void send('home', { as: me }).then((ack) => setError(ack.ok ? undefined : ack.error));
  }, [me]);
  const home = desk.snapshot.home;
  return (
    <>
      <header class="pane-header">
        <Avatar id="bot" initials={desk.bot.initials} size={24} bot />
        <h1>{desk.bot.name}</h1>
        <span class="purpose">{LABELS.home}</span>
      </header>
      <UndrawnCalls />
      <div class="home-body">
        {error && (
          <div class="action-error" role="alert">
            {error}
          </div>
        )}
        {home ? (
          <SurfaceHost surfaceKey={`home-${me}`} container={{ type: 'home' }} blocks={home.blocks}>
            <Blocks blocks={home.blocks} />
          </SurfaceHost>
        ) : (
          <p class="empty">{desk.bot.name} has not published a Home for you yet.</p>
        )}
      </div>
    </>
  );
}
