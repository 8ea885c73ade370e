/**
 * A TCP proxy on 127.0.0.1 in front of a server, for tests that need a connection to break at a
 * chosen moment: `cutWhen` sees every chunk the client sends; when it says so, that chunk still
 * reaches the server but the server's answer never reaches the client, whose connection is then
 * closed (a lost answer, as when a network drops right after a request left). `partition()` drops
 * everything both ways from then on without closing anything (a network cut, not a crash);
 * `heal()` ends it: the connections that lived through it are reset (bytes were lost on them), new
 * ones pass again.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Decides, per client chunk, whether to cut the connection after passing it on. */
  cutWhen: ((chunk: Buffer) => boolean) | undefined;
  /** From now on nothing passes either way; the connections stay open. */
  partition(): void;
  /** The network is back: every connection open now is reset, new ones pass. */
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let partitioned = false;
  const proxy: TcpProxy = {
    port: 0,
    cutWhen: undefined,
    partition: () => void (partitioned = true),
    heal() {
      partitioned = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cut = false;
    client.on('data', (chunk) => {
      if (partitioned) return;
      upstream.write(chunk);
      if (!cut && proxy.cutWhen?.(chunk)) {
        cut = true;
        // Long enough for the server to act on what it got; its answer is dropped meanwhile.
        setTimeout(() => {
          client.destroy();
          upstream.destroy();
        }, 100);
      }
    });
    upstream.on('data', (chunk) => {
      if (!cut && !partitioned) client.write(chunk);
    });
    // Across a partition a close is not seen on the other side either.
    const end = () => {
      if (partitioned) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  (proxy as { port: number }).port = typeof address === 'object' && address ? address.port : 0;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
