// The local desk: Slack's layout over one person's live snapshot, their modal on top.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Snapshot } from '../../protocol.js';
import { useSnapshot } from '../live/use-snapshot.js';
import { EnteredStore } from '../live/entered-store.js';
import { ReaderContext, type Reader } from '../mrkdwn/render.js';
import { ModalHost } from '../modal/modal.js';
import { SandboxPanel } from '../sandbox/sandbox-panel.js';
import { Avatar } from './avatar.js';
import { ChannelPane } from './channel-pane.js';
import { latestTs } from './conversation.js';
import { botOf, LocalDeskContext, type LocalDeskView } from './local-desk.js';
import { HomePane } from './home-pane.js';
import type { Place } from './place.js';
import { Sidebar } from './sidebar.js';
import { ThreadPane } from './thread-pane.js';
import { compareTs } from './time.js';

/** The person in the address (?as=U…), so a reload keeps who you are. */
function personInAddress(): string | undefined {
  return new URLSearchParams(location.search).get('as') ?? undefined;
}

export function App() {
  const [as, setAs] = useState(personInAddress);
  const live = useSnapshot(as);
  const store = useMemo(() => new EnteredStore(), []);
  const [place, setPlace] = useState<Place>();
  const [thread, setThread] = useState<{ channel: string; ts: string }>();
  const [sandboxShown, setSandboxShown] = useState(true);
  const seen = useSeen(live.snapshot, place);

  const snapshot = live.snapshot;
  if (!snapshot) {
    return (
      <div class="connecting" role="status">
        {live.connected ? 'Waiting for the desk…' : 'Connecting to the local desk…'}
      </div>
    );
  }
  const me = snapshot.people.find((p) => p.id === snapshot.me) ?? {
    id: snapshot.me,
    name: snapshot.me,
    initials: '?',
    role: 'outsider' as const,
    tz: 'UTC',
  };
  const current: Place = place ?? { kind: 'channel', id: snapshot.commandChannel };
  const channel = current.kind === 'channel' ? snapshot.channels.find((c) => c.id === current.id) : undefined;
  const desk: LocalDeskView = {
    snapshot,
    me,
    bot: botOf(snapshot),
    store,
    openThread: (c, ts) => setThread({ channel: c, ts }),
  };
  const reader: Reader = {
    userName: (id) => snapshot.people.find((p) => p.id === id)?.name,
    channelName: (id) => snapshot.channels.find((c) => c.id === id)?.name,
    timeZone: me.tz,
    now: Date.now(),
  };
  const actAs = (id: string) => {
    store.clear();
    setThread(undefined);
    setAs(id);
    const url = new URL(location.href);
    url.searchParams.set('as', id);
    history.replaceState(null, '', url);
  };
  const unread = new Set(
    snapshot.channels
      .filter((c) => c.id !== channel?.id && isNewer(latestTs(snapshot.messages, c.id), seen[c.id]))
      .map((c) => c.id),
  );

  return (
    <ReaderContext.Provider value={reader}>
      <LocalDeskContext.Provider value={desk}>
        <div class={`desk${thread ? ' with-thread' : ''}${sandboxShown ? ' with-sandbox' : ''}`}>
          <header class="topbar">
            <span class="topbar-title">Local desk</span>
            <span class={`connection${live.connected ? ' live' : ''}`} role="status">
              {live.connected ? 'Live' : 'Reconnecting…'}
            </span>
            <button
              type="button"
              class="topbar-button"
              aria-expanded={sandboxShown}
              onClick={() => setSandboxShown(!sandboxShown)}
            >
              Sandbox panel
            </button>
            <span class="topbar-me">
              <Avatar id={me.id} initials={me.initials} size={26} />
              <span>
                {me.name} <span class="topbar-role">· {me.role}</span>
              </span>
            </span>
          </header>
          <Sidebar place={current} unread={unread} onOpen={setPlace} onActAs={actAs} />
          <main class="pane">
            {current.kind === 'home' ? (
              <HomePane />
            ) : channel ? (
              <ChannelPane key={channel.id} channel={channel} />
            ) : (
              <p class="empty">This channel is gone.</p>
            )}
          </main>
          {thread && <ThreadPane channel={thread.channel} ts={thread.ts} onClose={() => setThread(undefined)} />}
          {sandboxShown && <SandboxPanel />}
        </div>
        <ModalHost />
      </LocalDeskContext.Provider>
    </ReaderContext.Provider>
  );
}

const isNewer = (ts: string | undefined, seen: string | undefined): boolean =>
  ts !== undefined && (seen === undefined || compareTs(ts, seen) > 0);

/** Everything in the first snapshot counts as seen, then the open channel's news; channels with later messages go bold. */
function useSeen(snapshot: Snapshot | undefined, place: Place | undefined): Record<string, string | undefined> {
  const [seen, setSeen] = useState<Record<string, string | undefined>>();
  const open = place?.kind === 'channel' ? place.id : place === undefined ? snapshot?.commandChannel : undefined;
  useEffect(() => {
    if (!snapshot) return;
    if (!seen) {
      setSeen(Object.fromEntries(snapshot.channels.map((c) => [c.id, latestTs(snapshot.messages, c.id)])));
      return;
    }
    const latest = open ? latestTs(snapshot.messages, open) : undefined;
    if (open && latest && seen[open] !== latest) setSeen({ ...seen, [open]: latest });
  }, [snapshot, open, seen]);
  return seen ?? {};
}
