import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostLookup, ResolvedAddress } from '../public-host.js';

export interface SeenRequest {
  path: string;
  host: string | undefined;
  userAgent: string | undefined;
}

/** A real HTTP server on 127.0.0.1 that records every connection and request it gets. */
export interface FixtureServer {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  requests: SeenRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: () => number;
  close: () => Promise<void>;
}

export type FixtureHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** Starts a server on an ephemeral 127.0.0.1 port; `close` ends open sockets too so tests never hang. */
export async function startFixtureServer(handler: FixtureHandler): Promise<FixtureServer> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((request, response) => {
    requests.push({ path: request.url ?? '', host: request.headers.host, userAgent: request.headers['user-agent'] });
    handler(request, response);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that must never be reached: any connection to it means the guard let something through. */
export function startTripwire(): Promise<FixtureServer> {
  return startFixtureServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><title>tripwire</title><body>internal secret</body></html>');
  });
}

export interface ScriptedLookup {
  lookup: HostLookup;
  calls: string[];
}

/** A fake resolver: answers from a table (a list of answers is served one per call, the last repeating). */
export function scriptedLookup(table: Record<string, ResolvedAddress[] | ResolvedAddress[][]>): ScriptedLookup {
  const calls: string[] = [];
  const served = new Map<string, number>();
  const lookup: HostLookup = async (hostname) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const isSequence = Array.isArray(entry[0]);
    if (!isSequence) return entry as ResolvedAddress[];
    const sequence = entry as ResolvedAddress[][];
    const index = served.get(hostname) ?? 0;
    served.set(hostname, index + 1);
    return sequence[Math.min(index, sequence.length - 1)] ?? [];
  };
  return { lookup, calls };
}

export const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
export const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** Sends an HTML page. */
export function sendHtml(response: ServerResponse, html: string, status = 200, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(html);
}

/** Sends a plain-text (or other typed) body. */
export function sendText(response: ServerResponse, text: string, status = 200, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { 'content-type': contentType });
  response.end(text);
}
