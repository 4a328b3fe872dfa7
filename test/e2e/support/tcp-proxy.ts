// A TCP proxy in front of Postgres, to take the database away from some processes and give it
// back: `cut()` closes every connection through it and refuses new ones (what clients see while
// Postgres restarts), `restore()` accepts them again on the same port.
import net from 'node:net';

export interface TcpProxy {
  /** `url` (a database URL) through the proxy; the proxy forwards to the host and port of `url`. */
  via(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(): Promise<TcpProxy> {
  let target: { host: string; port: number } | undefined;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (!target) return client.destroy();
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  const closeServer = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const cut = async () => {
    const closed = closeServer();
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    via(url) {
      const u = new URL(url);
      target = { host: u.hostname, port: Number(u.port || 5432) };
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut,
    restore: () => listen(port),
    close: cut,
  };
}
