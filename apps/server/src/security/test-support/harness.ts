import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig } from '@visibility/core';
import { startService, type StartServiceOptions } from '../../service.js';
import type { TestService } from '../../test-support/service.js';

/** Starts the real service (as startTestService does) with the test-only seams of startService. */
export async function startSecurityService(environment: Record<string, string> = {}, options: StartServiceOptions = {}): Promise<TestService> {
  const folder = mkdtempSync(join(tmpdir(), 'visibility-security-'));
  const logLines: string[] = [];
  const config = loadConfig({ PORT: '0', DATA_DIR: folder, BASE_URL: 'http://visibility.test', LOG_LEVEL: 'warn', ...environment });
  const service = await startService(config, createLogger({ level: 'warn', write: (line) => logLines.push(line) }), options);
  return {
    service,
    url: service.url.replace('localhost', '127.0.0.1'),
    dataDir: folder,
    logLines,
    async stop() {
      await service.close(500);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The .eml files in DATA_DIR/outbox, oldest first. */
export function outboxFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'outbox'))
      .sort()
      .map((file) => join(dataDir, 'outbox', file));
  } catch {
    return [];
  }
}

/** A server that must receive no connection: the stand-in for an internal service. Listens on [::] (dual stack). */
export interface Tripwire {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startTripwire(): Promise<Tripwire> {
  let connections = 0;
  const server = http.createServer((_request, response) => response.end('internal secret'));
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Raw sockets: what fetch cannot do (oversize and slow requests, exact bytes).
// ---------------------------------------------------------------------------------------------------------

export interface RawExchange {
  /** Everything the server sent. */
  text: string;
  /** The status of the first response, or undefined when none came. */
  status: number | undefined;
  /** How the socket ended: the server closed (end/close), reset it, or we gave up waiting. */
  ending: 'closed' | 'reset' | 'timeout';
  /** Milliseconds from connecting until the ending. */
  elapsedMs: number;
}

/**
 * Opens a TCP connection, writes `chunks` (a delay in ms between them is given by a number entry), and
 * collects what comes back until the server closes the socket or `waitMs` passes.
 */
export function rawExchange(port: number, chunks: Array<string | Buffer | number>, waitMs = 3_000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const received: Buffer[] = [];
    let done = false;
    const socket = net.connect(port, '127.0.0.1');
    const finish = (ending: RawExchange['ending']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ text, status: match ? Number(match[1]) : undefined, ending, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish('timeout'), waitMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'closed'));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (done) return;
        if (typeof chunk === 'number') await new Promise((wait) => setTimeout(wait, chunk));
        else if (!socket.destroyed) socket.write(chunk);
      }
    });
  });
}

/** GET /health with a plain fetch: proves the server still answers everyone else. */
export async function healthStatus(url: string, timeoutMs = 2_000): Promise<number> {
  const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
  await response.arrayBuffer();
  return response.status;
}
