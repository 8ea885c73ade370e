/**
 * A stand-in for Slack's Socket Mode endpoint on loopback: a bare WebSocket server (RFC 6455,
 * text frames, no extensions) that says `hello` on connect, sends the envelopes a test gives it,
 * and records what the client sends back (its acks). Enough for @slack/socket-mode's real client
 * to connect, ack and disconnect; nothing more.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SocketModeServer {
  /** ws://127.0.0.1:port: what a fake apps.connections.open answers (with a path and ticket added). */
  url: string;
  /** Text frames the client sent, parsed as JSON. */
  received: Array<Record<string, unknown>>;
  /** Sends one envelope to every connected client. */
  send(envelope: Record<string, unknown>): void;
  /** Drops every open socket and keeps listening, as Slack does when it moves a connection. */
  dropConnections(): void;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([0x80 | opcode, n])
      : n < 65_536
        ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(n)]);
  return Buffer.concat([head, payload]);
}

function bigLength(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** Client frames (always masked, RFC 6455 §5.3) out of `buf`; returns what is left incomplete. */
function readFrames(buf: Buffer, onFrame: (opcode: number, payload: Buffer) => void): Buffer {
  let rest = buf;
  for (;;) {
    if (rest.length < 2) return rest;
    const opcode = rest[0]! & 0x0f;
    let len = rest[1]! & 0x7f;
    let at = 2;
    if (len === 126) {
      if (rest.length < 4) return rest;
      len = rest.readUInt16BE(2);
      at = 4;
    } else if (len === 127) {
      if (rest.length < 10) return rest;
      len = Number(rest.readBigUInt64BE(2));
      at = 10;
    }
    if (rest.length < at + 4 + len) return rest;
    const mask = rest.subarray(at, at + 4);
    const payload = Buffer.from(rest.subarray(at + 4, at + 4 + len));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    onFrame(opcode, payload);
    rest = rest.subarray(at + 4 + len);
  }
}

export async function startSocketModeServer(): Promise<SocketModeServer> {
  const sockets = new Set<Socket>();
  const received: Array<Record<string, unknown>> = [];
  const server: Server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}${GUID}`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = readFrames(Buffer.concat([pending, chunk]), (opcode, payload) => {
        if (opcode === 0x1) received.push(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
        else if (opcode === 0x9) socket.write(frame(0xa, payload));
        else if (opcode === 0x8) {
          socket.end(frame(0x8, payload));
          sockets.delete(socket);
        }
      });
    });
    socket.write(
      frame(0x1, Buffer.from(JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'test' } }))),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    received,
    send(envelope) {
      const f = frame(0x1, Buffer.from(JSON.stringify(envelope)));
      for (const s of sockets) s.write(f);
    },
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
