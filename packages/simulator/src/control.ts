import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseFaultSpecs } from './faults.js';
import { readBody, sendJson } from './http.js';
import type { SimulatorState } from './state.js';

/** The prefix of the endpoints that let another process drive the simulator. */
export const CONTROL_PREFIX = '/__simulator/';

function controlError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: { message } });
}

async function readJson(request: IncomingMessage): Promise<{ value: unknown } | { error: string }> {
  const text = await readBody(request);
  try {
    return { value: text.trim().length === 0 ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return { error: 'body is not valid JSON' };
  }
}

/** Serves /__simulator/*: health, the request log, faults, latency and reset. */
export async function handleControl(request: IncomingMessage, response: ServerResponse, pathname: string, state: SimulatorState): Promise<void> {
  const endpoint = `${request.method ?? 'GET'} ${pathname.slice(CONTROL_PREFIX.length).replace(/\/$/, '')}`;
  switch (endpoint) {
    case 'GET health':
      return sendJson(response, 200, {
        ok: true,
        seed: state.seed,
        latencyMs: state.latencyMs,
        pendingFaults: state.faults.list().length,
        requests: state.requests().length,
      });
    case 'GET requests':
      return sendJson(response, 200, state.requests());
    case 'DELETE requests':
      return sendJson(response, 200, { cleared: state.clearRequests() });
    case 'GET faults':
      return sendJson(response, 200, state.faults.list());
    case 'POST faults': {
      const body = await readJson(request);
      if ('error' in body) return controlError(response, 400, body.error);
      const parsed = parseFaultSpecs(body.value);
      if ('error' in parsed) return controlError(response, 400, parsed.error);
      state.faults.add(parsed.faults);
      return sendJson(response, 200, { queued: parsed.faults.length, pending: state.faults.list() });
    }
    case 'DELETE faults': {
      const cleared = state.faults.list().length;
      state.faults.clear();
      return sendJson(response, 200, { cleared });
    }
    case 'POST latency': {
      const body = await readJson(request);
      if ('error' in body) return controlError(response, 400, body.error);
      const ms: unknown = typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>)['ms'] : undefined;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return controlError(response, 400, 'send {"ms": <non-negative number>}');
      state.latencyMs = ms;
      return sendJson(response, 200, { latencyMs: ms });
    }
    case 'POST brand-rate': {
      const body = await readJson(request);
      if ('error' in body) return controlError(response, 400, body.error);
      const value = typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>) : {};
      const brand = value['brand'];
      const rate = value['rate'];
      if (typeof brand !== 'string' || brand.trim() === '' || !(rate === null || (typeof rate === 'number' && rate >= 0 && rate <= 1))) {
        return controlError(response, 400, 'send {"brand": "<name>", "rate": <0..1, or null to clear>}');
      }
      state.setBrandRate(brand, rate === null ? undefined : rate);
      return sendJson(response, 200, { brandRates: Object.fromEntries(state.brandRates) });
    }
    case 'POST reset':
      state.reset();
      return sendJson(response, 200, { ok: true });
    default:
      return controlError(response, 404, `unknown control endpoint: ${endpoint}`);
  }
}
