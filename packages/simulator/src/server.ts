import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CONTROL_PREFIX, handleControl } from './control.js';
import { parseFaultSpecs } from './faults.js';
import { BodyTooLargeError, flattenHeaders, sendJson } from './http.js';
import { handleProviderCall } from './provider-endpoint.js';
import { SimulatorState } from './state.js';
import type { FaultSpec, RunningSimulator, SimulatorOptions } from './types.js';
import { formatForUnknownPath, matchRoute } from './wire/routes.js';

const DEFAULT_SEED = 42;

/** Starts the simulator on a loopback port (0 = any free one) and resolves once it is listening. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const state = new SimulatorState(options.seed ?? DEFAULT_SEED, Math.max(0, options.latencyMs ?? 0));
  const closing = new AbortController();
  // Every delayed answer listens on this one signal (and stops listening when it is sent): no leak, no cap.
  setMaxListeners(0, closing.signal);
  const sockets = new Set<Socket>();

  const server = createServer((request, response) => {
    handle(request, response, state, closing.signal).catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) return sendJson(response, 413, { error: { message: error.message } });
      if (!response.headersSent) return sendJson(response, 500, { error: { message: `simulator failure: ${String(error)}` } });
      response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    baseUrls: { openai: `${url}/v1`, anthropic: url, gemini: url },
    requests: () => state.requests(),
    clearRequests: () => {
      state.clearRequests();
    },
    injectFaults: (faults: FaultSpec[]) => {
      const parsed = parseFaultSpecs(faults);
      if ('error' in parsed) throw new TypeError(`invalid fault: ${parsed.error}`);
      state.faults.add(parsed.faults);
    },
    clearFaults: () => state.faults.clear(),
    setLatency: (ms: number) => {
      state.latencyMs = Math.max(0, ms);
    },
    setBrandRate: (brand: string, rate: number | undefined) => state.setBrandRate(brand, rate),
    holdAnswersUntil: (count: number) => state.holdAnswersUntil(count),
    reset: () => state.reset(),
    close: () => {
      // Hanging and delayed requests hold sockets open; destroy them so close() cannot hang.
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, state: SimulatorState, closing: AbortSignal): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://simulator.invalid');
  if (url.pathname.startsWith(CONTROL_PREFIX)) return handleControl(request, response, url.pathname, state);
  const route = matchRoute(request.method ?? 'GET', url.pathname);
  if (route) return handleProviderCall(request, response, url, route, state, closing);
  request.resume();
  const format = formatForUnknownPath(url.pathname, flattenHeaders(request.headers));
  const reply = format.error({ kind: 'not_found', status: 404, method: request.method ?? 'GET', path: url.pathname });
  sendJson(response, reply.status, reply.body, reply.headers);
}
