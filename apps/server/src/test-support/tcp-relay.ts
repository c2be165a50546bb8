import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay to a database a test can cut and restore: an outage without stopping the database. */
export interface Relay {
  port: number;
  /** Stops listening and cuts every open connection: PostgreSQL refuses, as when it is down. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(host: string, port: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (onPort: number) =>
    new Promise<number>((resolve, reject) => {
      const created = createServer((client) => {
        const upstream = connect(port, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      created.once('error', reject);
      created.listen(onPort, '127.0.0.1', () => {
        server = created;
        resolve((created.address() as { port: number }).port);
      });
    });
  const stop = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing !== undefined) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  const relayPort = await listen(0);
  return {
    port: relayPort,
    cut: stop,
    restore: async () => {
      await listen(relayPort);
    },
    close: stop,
  };
}
