/**
 * Raw TCP clients for the HTTP edge tests: they send part of a request (or nothing) and stall, as a
 * slow or hostile client does, and tell when the server closed them.
 */
import { connect, type Socket } from 'node:net';

const sockets: Socket[] = [];

/** Destroy every socket opened here (afterEach). */
export function closeSlowSockets(): void {
  for (const s of sockets.splice(0)) s.destroy();
}

/** 'closed' if the server closed `c` within `ms`, else 'open'. */
export function within(c: Raw, ms: number): Promise<'closed' | 'open'> {
  return Promise.race([
    c.closed.then(() => 'closed' as const),
    new Promise<'open'>((r) => setTimeout(() => r('open'), ms)),
  ]);
}

export interface Raw {
  socket: Socket;
  /** Everything the server wrote, so far. */
  received(): string;
  /** Resolves when the server closed the connection, with how long it took from `open`. */
  closed: Promise<number>;
}

/** A raw TCP client to the bot that writes `head` (and nothing more unless told). */
export async function open(port: number, head = ''): Promise<Raw> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const opened = performance.now();
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (head) socket.write(head);
  return { socket, received: () => data, closed };
}

/** Request headers for an unsigned POST to `path` declaring `length` bytes. */
export function postHead(
  path: string,
  length: number,
  type = 'application/x-www-form-urlencoded',
  host = '127.0.0.1',
): string {
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
}
