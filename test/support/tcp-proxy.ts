/**
 * A TCP proxy on a port of its own to 127.0.0.1:`target` (PostgreSQL), for tests of a database that
 * goes away under a running portal without touching the machine's server: `stop` is a database
 * stopped (the port refuses, every connection through it closes), `freeze` one frozen (`kill
 * -STOP`: connections are accepted and kept, nothing is answered, what is sent waits), `thaw`
 * lets everything that waited through, in order.
 */
import net from 'node:net';
import { freePort } from './processes';

export interface TcpProxy {
  port: number;
  /** Listens (again); nothing when it listens already. */
  start(): Promise<void>;
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
}

export async function tcpProxy(target: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let frozen = false;
  let held: Array<() => void> = [];

  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('end', () => (frozen ? held.push(() => to.end()) : to.end()));
  };

  return {
    port,
    start: () => new Promise<void>((resolve) => {
      if (server) return resolve();
      server = net.createServer((client) => {
        const upstream = net.connect(target, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        forward(client, upstream);
        forward(upstream, client);
      }).listen(port, '127.0.0.1', () => resolve());
    }),
    stop: () => new Promise<void>((resolve) => {
      held = [];
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    }),
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      const waiting = held;
      held = [];
      for (const send of waiting) send();
    },
  };
}
