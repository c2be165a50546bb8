// Raw HTTP against /mcp, for what an SDK client never sends: broken JSON, unknown sessions, other hosts.

import { request as httpRequest } from 'node:http';

/** The headers a streamable-HTTP client sends with every POST. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or, for an SSE answer, the JSON of its first `data:` line; undefined otherwise. */
  json: any;
}

/** Sends one request with node:http (so the Host header can be anything) and reads the whole answer. */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, json: parseBody(text) }));
    });
    outgoing.on('error', reject);
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`no answer from ${url} within 10 s`)));
    outgoing.end(options.body);
  });
}

/** An initialize request body. */
export function initializeBody(protocolVersion: string, id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-http-test', version: '1.0.0' } },
  });
}

/** Opens a session with a raw initialize; returns its id and the initialize result. */
export async function initializeRaw(url: string, protocolVersion = '2025-06-18'): Promise<{ sessionId: string; result: any; reply: RawReply }> {
  const reply = await rawRequest(url, { headers: { ...POST_HEADERS }, body: initializeBody(protocolVersion) });
  const sessionId = reply.headers['mcp-session-id'];
  if (typeof sessionId !== 'string') throw new Error(`initialize answered ${reply.status} without a session id: ${reply.text}`);
  await rawRequest(url, {
    headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return { sessionId, result: reply.json?.result, reply };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const data = text.split('\n').find((line) => line.startsWith('data: ') && line.length > 'data: '.length);
    if (data === undefined) return undefined;
    try {
      return JSON.parse(data.slice('data: '.length));
    } catch {
      return undefined;
    }
  }
}

/** One server-sent event. */
export interface SseEvent {
  id?: string;
  retry?: string;
  event?: string;
  data: string;
}

/** The events of an SSE body (complete events only: each ends with a blank line). */
export function parseSseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data += value;
        else if (field === 'id' || field === 'retry' || field === 'event') event[field] = value;
      }
      return event;
    });
}

/** Opens a GET stream and reads it until an event matches (then closes it); rejects after the timeout. */
export async function readSseUntil(url: string, headers: Record<string, string>, matches: (event: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no matching event within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetch(url, { headers, signal: abort.signal });
    if (response.status !== 200 || response.body === null) throw new Error(`GET answered ${response.status}: ${await response.text()}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended without a matching event: ${text}`);
      text += value;
      const found = parseSseEvents(text).find(matches);
      if (found !== undefined) return found;
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
