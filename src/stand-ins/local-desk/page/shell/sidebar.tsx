// The sidebar: whose desk, the people switcher, the channel list (current marked, news in bold).
import type { ComponentChildren } from 'preact';
import type { Channel, Person } from '../../protocol.js';
import { LABELS } from '../../protocol.js';
import { Avatar } from './avatar.js';
import { useLocalDesk } from './local-desk.js';
import type { Place } from './place.js';

export interface SidebarProps {
  place: Place;
  unread: ReadonlySet<string>;
  onOpen: (place: Place) => void;
  onActAs: (personId: string) => void;
}

export function Sidebar({ place, unread, onOpen, onActAs }: SidebarProps) {
  const desk = useLocalDesk();
  const channels = desk.snapshot.channels.filter((c) => c.kind === 'channel');
  const dms = desk.snapshot.channels.filter((c) => c.kind === 'dm');
  const item = (c: Channel, label: string, icon: ComponentChildren) => (
    <li key={c.id}>
      <button
        type="button"
        class={`nav-item${unread.has(c.id) ? ' unread' : ''}`}
        aria-current={place.kind === 'channel' && place.id === c.id ? 'page' : undefined}
        onClick={() => onOpen({ kind: 'channel', id: c.id })}
      >
        {icon}
        {label}
      </button>
    </li>
  );
  return (
    <div class="sidebar">
      <div class="workspace">
        <div class="workspace-name">Trading desk</div>
        <div class="workspace-sub">Local desk · no Slack needed</div>
      </div>
      <PeopleSwitcher people={desk.snapshot.people} me={desk.me} onActAs={onActAs} />
      <nav aria-label={LABELS.channels} class="nav">
        <button
          type="button"
          class="nav-item"
          aria-current={place.kind === 'home' ? 'page' : undefined}
          onClick={() => onOpen({ kind: 'home' })}
        >
          <span class="nav-icon" aria-hidden="true">
            ⌂
          </span>
          {LABELS.home}
        </button>
        <h2 class="nav-heading">Channels</h2>
        <ul>{channels.map((c) => item(c, `#${c.name}`, null))}</ul>
        {dms.length > 0 && <h2 class="nav-heading">Direct messages</h2>}
        <ul>{dms.map((c) => item(c, c.name, <Avatar id="bot" initials={desk.bot.initials} size={18} bot />))}</ul>
      </nav>
    </div>
  );
}

function PeopleSwitcher({ people, me, onActAs }: { people: Person[]; me: Person; onActAs: (id: string) => void }) {
  return (
    <div class="switcher">
      <label for="act-as" class="switcher-label">
        {LABELS.actAs}
      </label>
      <select id="act-as" value={me.id} onChange={(e) => onActAs(e.currentTarget.value)}>
        {people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.role})
          </option>
        ))}
      </select>
    </div>
  );
}
