// Server-sent events: each page gets its person's whole snapshot at once and after changes (several in one
// turn sent once), with comment lines so idle streams stay open.
import type { ServerResponse } from 'node:http';
import type { Workspace } from './workspace.js';

export const KEEP_ALIVE_MS = 15_000;
/** A page that reads slower than this much unsent data is dropped; its EventSource reconnects and gets the latest. */
const MAX_BUFFERED = 8 * 1024 * 1024;

interface Client {
  res: ServerResponse;
  person: string;
}

export class SnapshotStreams {
  readonly #ws: Workspace;
  readonly #clients = new Set<Client>();
  readonly #keepAlive: NodeJS.Timeout;
  readonly #stopListening: () => void;
  #flushing = false;

  constructor(ws: Workspace, keepAliveMs = KEEP_ALIVE_MS) {
    this.#ws = ws;
    this.#stopListening = ws.onChange(() => this.#schedule());
    this.#keepAlive = setInterval(() => {
      for (const c of this.#clients) this.#write(c, ': keep-alive\n\n');
    }, keepAliveMs);
    this.#keepAlive.unref();
  }

  get open(): number {
    return this.#clients.size;
  }

  add(res: ServerResponse, person: string): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    const client = { res, person };
    this.#clients.add(client);
    res.on('close', () => this.#clients.delete(client));
    // How soon a dropped page reconnects.
    this.#write(client, 'retry: 1000\n\n');
    this.#write(client, event(this.#ws.snapshot(person)));
  }

  close(): void {
    clearInterval(this.#keepAlive);
    this.#stopListening();
    for (const c of this.#clients) c.res.end();
    this.#clients.clear();
  }

  #schedule(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => {
      this.#flushing = false;
      const byPerson = new Map<string, string>();
      for (const c of this.#clients) {
        let text = byPerson.get(c.person);
        if (text === undefined) byPerson.set(c.person, (text = event(this.#ws.snapshot(c.person))));
        this.#write(c, text);
      }
    });
  }

  #write(c: Client, text: string): void {
    if (c.res.writableLength > MAX_BUFFERED) {
      c.res.destroy();
      this.#clients.delete(c);
      return;
    }
    c.res.write(text);
  }
}

function event(snapshot: { version: number }): string {
  // JSON.stringify never writes a raw line break, so the data is one line.
  return `event: snapshot\nid: ${snapshot.version}\ndata: ${JSON.stringify(snapshot)}\n\n`;
}
