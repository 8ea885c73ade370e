// What every part of the page reads: snapshot, viewer, bot name, and the store of what was entered.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Person, Snapshot } from '../../protocol.js';
import type { EnteredStore } from '../live/entered-store.js';

export interface LocalDeskView {
  snapshot: Snapshot;
  me: Person;
  bot: { name: string; initials: string };
  store: EnteredStore;
  openThread(channel: string, ts: string): void;
}

export const LocalDeskContext = createContext<LocalDeskView | null>(null);

export function useLocalDesk(): LocalDeskView {
  const d = useContext(LocalDeskContext);
  if (!d) throw new Error('outside the desk');
  return d;
}

/** Until the snapshot names the bot, a DM's name is the bot's. */
export function botOf(snapshot: Snapshot): { name: string; initials: string } {
  const named = (snapshot as Snapshot & { bot?: { name?: string; initials?: string } }).bot;
  const name = named?.name ?? snapshot.channels.find((c) => c.kind === 'dm')?.name ?? 'Desk bot';
  return { name, initials: named?.initials ?? initialsOf(name) };
}

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}
