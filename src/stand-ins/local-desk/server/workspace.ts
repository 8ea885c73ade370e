// What the bot has shown and to whom (channels, threads, ephemerals, modal stacks, App Homes, undrawn), and
// where each request came from, since a views.open or response_url post does not say whose screen it is for.
import { randomBytes } from 'node:crypto';
import { dmChannelOf } from '../../fake-slack/fake-slack-api.js';
import type { Channel, LocalDeskMessage, LocalDeskModal, Person, Snapshot } from '../protocol.js';

export interface Cast {
  people: Person[];
  /** The workspace's channels (each person's DM with the bot is added for them). */
  channels: Channel[];
  /** Where the message box posts by default. */
  commandChannel: string;
  /** The bot's display name: the name of everyone's DM with it. */
  botName: string;
}

/** Where the workspace gets what Slack would add to a message it shows itself. */
export interface WorkspaceClock {
  /** A message ts after every one posted so far (the fake Slack API's sequence). */
  nextTs(): string;
  /** Epoch ms on the desk's clock. */
  now(): number;
}

/** Where a response URL was handed out: whose it is, in which channel, and for which message. */
export interface ResponseOrigin {
  person: string;
  channel: string;
  /** The message whose button was pressed (`replace_original` and `delete_original` act on it). */
  source?: string;
  /** The last message posted through this URL (a command's answer has no source message). */
  last?: string;
}

/** Everyone, or one person only (a DM, an ephemeral answer, a command typed). */
type Audience = { everyone: true } | { everyone: false; person: string };

interface Placed {
  message: LocalDeskMessage;
  audience: Audience;
}

/** Trigger ids and view order against calls in flight are not kept: both are dead after a restart. */
export interface SavedWorkspace {
  version: number;
  messages: [string, Placed][];
  stacks: [string, LocalDeskModal[]][];
  homes: [string, Record<string, unknown>][];
  homeIds: [string, string][];
  responses: [string, ResponseOrigin][];
  undrawn: { method: string; summary: string; person?: string }[];
  minted: number;
}

/** Bound on remembered trigger ids and response URLs (each press mints one; old ones are long dead in Slack too). */
const ORIGINS_KEPT = 5_000;

export class Workspace {
  readonly cast: Cast;
  readonly #clock: WorkspaceClock;
  #version = 0;
  #messages = new Map<string, Placed>();
  #stacks = new Map<string, LocalDeskModal[]>();
  #homes = new Map<string, Record<string, unknown>>();
  /** Home view id -> its person (views.update may target a home). */
  #homeIds = new Map<string, string>();
  /** View id -> seq of the last Slack call that changed it (orders HTTP answers against calls). */
  #viewSeq = new Map<string, number>();
  #triggers = new Map<string, string>();
  #responses = new Map<string, ResponseOrigin>();
  #undrawn: { method: string; summary: string; person?: string }[] = [];
  #listeners = new Set<() => void>();
  #minted = 0;

  /** `saved`: what an earlier run's saved() gave; the workspace continues from it. */
  constructor(cast: Cast, clock: WorkspaceClock, saved?: SavedWorkspace) {
    this.cast = cast;
    this.#clock = clock;
    if (saved) {
      this.#version = saved.version;
      this.#messages = new Map(saved.messages);
      this.#stacks = new Map(saved.stacks);
      this.#homes = new Map(saved.homes);
      this.#homeIds = new Map(saved.homeIds);
      this.#responses = new Map(saved.responses);
      this.#undrawn = [...saved.undrawn];
      this.#minted = saved.minted;
    }
  }

  saved(): SavedWorkspace {
    return {
      version: this.#version,
      messages: [...this.#messages],
      stacks: [...this.#stacks],
      homes: [...this.#homes],
      homeIds: [...this.#homeIds],
      responses: [...this.#responses],
      undrawn: [...this.#undrawn],
      minted: this.#minted,
    };
  }

  nextTs(): string {
    return this.#clock.nextTs();
  }

  now(): number {
    return this.#clock.now();
  }

  get version(): number {
    return this.#version;
  }

  /** Whose desk a page that names no one shows: the cast's first person (the preview's trader), so the printed address opens a desk. */
  get defaultPerson(): string {
    const first = this.cast.people[0];
    if (!first) throw new Error('the local desk has no people');
    return first.id;
  }

  isPerson(id: string): boolean {
    return this.cast.people.some((p) => p.id === id);
  }

  /** Called after every change (once per fold). Returns the function that stops listening. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** A trigger id for `person`'s next request: a views.open or views.push with it lands on their screen. */
  mintTrigger(person: string): string {
    const id = `${Date.now()}.${++this.#minted}.${Math.random().toString(16).slice(2, 10)}`;
    remember(this.#triggers, id, person);
    return id;
  }

  personOfTrigger(triggerId: unknown): string | undefined {
    return typeof triggerId === 'string' ? this.#triggers.get(triggerId) : undefined;
  }

  /** Unguessable, as Slack's are: the stand-in takes posts from anyone on this machine. */
  mintResponse(origin: ResponseOrigin): string {
    const id = `${origin.person}.${++this.#minted}.${randomBytes(12).toString('hex')}`;
    remember(this.#responses, id, origin);
    return id;
  }

  responseOrigin(id: string | undefined): ResponseOrigin | undefined {
    return id === undefined ? undefined : this.#responses.get(id);
  }

  /** The person whose DM with the bot `channel` is, if it is one. */
  dmOwner(channel: string): string | undefined {
    return this.cast.people.find((p) => dmChannelOf(p.id) === channel || p.id === channel)?.id;
  }

  /** The channels `person` sees: the workspace's, and their DM with the bot. */
  channelsOf(person: string): Channel[] {
    return [
      ...this.cast.channels,
      {
        id: dmChannelOf(person),
        name: this.cast.botName,
        kind: 'dm',
        purpose: `Direct messages from ${this.cast.botName}`,
      },
    ];
  }

  canSeeChannel(person: string, channel: string): boolean {
    return this.channelsOf(person).some((c) => c.id === channel);
  }

  /** A channel for everyone, a DM for its owner, `onlyFor` when given; false for a channel the desk does not know. */
  post(message: LocalDeskMessage, onlyFor?: string): boolean {
    const dmOwner = this.dmOwner(message.channel);
    if (dmOwner === undefined && !this.cast.channels.some((c) => c.id === message.channel)) return false;
    const person = onlyFor ?? dmOwner;
    const channel = dmOwner !== undefined ? dmChannelOf(dmOwner) : message.channel;
    this.#messages.set(keyOf(channel, message.ts), {
      message: { ...message, channel },
      audience: person === undefined ? { everyone: true } : { everyone: false, person },
    });
    this.#changed();
    return true;
  }

  /** The key of a message `viewer` can see (undefined viewer: anyone's), or undefined. */
  findMessage(channel: string, ts: string, viewer?: string): string | undefined {
    const dmOwner = this.dmOwner(channel);
    const key = keyOf(dmOwner !== undefined ? dmChannelOf(dmOwner) : channel, ts);
    const placed = this.#messages.get(key);
    if (!placed) return undefined;
    if (viewer !== undefined && !placed.audience.everyone && placed.audience.person !== viewer) return undefined;
    return key;
  }

  message(key: string): LocalDeskMessage | undefined {
    return this.#messages.get(key)?.message;
  }

  /** The one person a message is for, when it is not for everyone. */
  audienceOf(key: string): string | undefined {
    const audience = this.#messages.get(key)?.audience;
    return audience && !audience.everyone ? audience.person : undefined;
  }

  /** As chat.update: blocks left out are kept (unless given an empty list), and so is the text. */
  edit(key: string, change: { text?: string | undefined; blocks?: unknown[] | undefined }): boolean {
    const placed = this.#messages.get(key);
    if (!placed) return false;
    const { text, blocks } = change;
    placed.message = {
      ...placed.message,
      ...(text !== undefined ? { text } : {}),
      ...(blocks !== undefined ? { blocks } : {}),
      edited: true,
    };
    this.#changed();
    return true;
  }

  remove(key: string): boolean {
    const had = this.#messages.delete(key);
    if (had) this.#changed();
    return had;
  }

  /** `person`'s modal stack, bottom first. */
  stackOf(person: string): readonly LocalDeskModal[] {
    return this.#stacks.get(person) ?? [];
  }

  /** The modal on top of `person`'s stack if it is `viewId`. */
  topModal(person: string, viewId: string): LocalDeskModal | undefined {
    const top = this.stackOf(person).at(-1);
    return top?.id === viewId ? top : undefined;
  }

  /** views.open: a new stack of one (an open modal is replaced, as a new trigger does in Slack). */
  openModal(person: string, view: Record<string, unknown>, seq?: number): void {
    this.#stacks.set(person, [this.#modal(view, seq)]);
    this.#changed();
  }

  pushModal(person: string, view: Record<string, unknown>, seq?: number): void {
    this.#stacks.set(person, [...this.stackOf(person), this.#modal(view, seq)]);
    this.#changed();
  }

  /** views.update or response_action update: the view keeps its place in its stack; errors go. */
  replaceView(viewId: string, view: Record<string, unknown>, seq?: number): boolean {
    const homeOwner = this.#homeIds.get(viewId);
    if (homeOwner !== undefined) {
      this.#homes.set(homeOwner, view);
      this.#changed();
      return true;
    }
    for (const [person, stack] of this.#stacks) {
      const at = stack.findIndex((m) => m.id === viewId);
      if (at < 0) continue;
      this.#stacks.set(
        person,
        stack.map((m, i) => (i === at ? this.#modal(view, seq, viewId) : m)),
      );
      this.#changed();
      return true;
    }
    return false;
  }

  /** True when a Slack call changed the view after the call numbered `seq`. */
  viewChangedAfter(viewId: string, seq: number): boolean {
    return (this.#viewSeq.get(viewId) ?? 0) > seq;
  }

  /** `response_action: errors`: field errors by block_id on the submitted view. */
  setErrors(person: string, viewId: string, errors: Record<string, string>): boolean {
    const stack = this.stackOf(person);
    if (!stack.some((m) => m.id === viewId)) return false;
    this.#stacks.set(
      person,
      stack.map((m) => (m.id === viewId ? { ...m, errors } : m)),
    );
    this.#changed();
    return true;
  }

  /** Close the top view (the × button, or a submission answered with nothing). */
  closeTop(person: string): LocalDeskModal | undefined {
    const stack = this.stackOf(person);
    const top = stack.at(-1);
    if (!top) return undefined;
    this.#stacks.set(person, stack.slice(0, -1));
    this.#changed();
    return top;
  }

  clearModals(person: string): void {
    this.#stacks.set(person, []);
    this.#changed();
  }

  publishHome(person: string, view: Record<string, unknown>): void {
    this.#homes.set(person, view);
    if (typeof view.id === 'string') this.#homeIds.set(view.id, person);
    this.#changed();
  }

  homeOf(person: string): Record<string, unknown> | undefined {
    return this.#homes.get(person);
  }

  /** Something the bot sent that the desk cannot draw or place: shown as such (to `person` only, when known). */
  cannotPlace(method: string, summary: string, person?: string): void {
    this.#undrawn.push({ method, summary, ...(person !== undefined ? { person } : {}) });
    this.#changed();
  }

  snapshot(me: string): Snapshot {
    const home = this.#homes.get(me);
    return {
      version: this.#version,
      me,
      people: this.cast.people,
      channels: this.channelsOf(me),
      commandChannel: this.cast.commandChannel,
      messages: [...this.#messages.values()]
        .filter((p) => p.audience.everyone || p.audience.person === me)
        .map((p) => p.message),
      modals: [...this.stackOf(me)],
      ...(home ? { home } : {}),
      undrawn: this.#undrawn
        .filter((u) => u.person === undefined || u.person === me)
        .map(({ method, summary }) => ({ method, summary })),
    };
  }

  #modal(view: Record<string, unknown>, seq: number | undefined, id?: string): LocalDeskModal {
    const viewId = id ?? String(view.id ?? '');
    if (seq !== undefined) this.#viewSeq.set(viewId, Math.max(seq, this.#viewSeq.get(viewId) ?? 0));
    return { id: viewId, hash: String(view.hash ?? ''), view };
  }

  #changed(): void {
    this.#version += 1;
    for (const listener of [...this.#listeners]) listener();
  }
}

function keyOf(channel: string, ts: string): string {
  return `${channel} ${ts}`;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > ORIGINS_KEPT) map.delete(map.keys().next().value!);
}
