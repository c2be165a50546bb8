import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { classifyPrompt } from './classify.js';
import { composeAnswer } from './compose.js';
import { delay, flattenHeaders, readBody, sendJson } from './http.js';
import type { SimulatorState } from './state.js';
import { structuredAnswer } from './structured.js';
import { estimateTokens, truncateToTokens } from './text.js';
import type { MatchedRoute } from './wire/routes.js';
import type { WireReply } from './wire/types.js';

// Keys that start with this are refused as wrong keys, so adapters can test their auth-error path.
const INVALID_KEY_PREFIX = 'invalid';

/** Serves one vendor API call: record it, check key and body, apply a queued fault or answer from the world. */
export async function handleProviderCall(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  route: MatchedRoute,
  state: SimulatorState,
  closing: AbortSignal,
): Promise<void> {
  const startedAt = performance.now();
  const { format } = route;
  const headers = flattenHeaders(request.headers);
  const raw = await readBody(request);
  let body: unknown = raw;
  let parsed = true;
  try {
    body = raw.trim().length === 0 ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    parsed = false;
  }
  const call = format.read(parsed ? body : undefined, route.modelFromPath);
  const classification = classifyPrompt(call.prompt);
  const record = state.record({
    provider: format.provider,
    api: format.api,
    path: url.pathname,
    model: call.model,
    prompt: call.prompt,
    kind: classification.kind,
    language: classification.language,
    headers,
    body,
    status: 0,
    receivedAt: Date.now(),
  });
  const reply = (wireReply: WireReply): void => {
    record.status = wireReply.status;
    sendJson(response, wireReply.status, wireReply.body, wireReply.headers);
  };

  const credential = format.credential(headers, url.searchParams);
  if (credential.kind === 'missing') return reply(format.error({ kind: 'missing_key', status: 401 }));
  if (credential.value.startsWith(INVALID_KEY_PREFIX)) return reply(format.error({ kind: 'invalid_key', status: 401 }));

  const problem = parsed ? format.problem(body, route.streamingPath) : { message: 'The request body is not valid JSON.' };
  if (problem) return reply(format.error({ kind: 'bad_request', status: 400, ...problem }));

  const fault = state.faults.take(format.provider);
  if (fault?.kind === 'hang') return; // Never answer: the socket stays open until the client gives up or close() destroys it.
  if (fault?.kind === 'rate_limit') {
    return reply(format.error({ kind: 'rate_limit', status: 429, retryAfterSeconds: fault.retryAfterSeconds ?? 1, model: call.model }));
  }
  if (fault?.kind === 'server_error') return reply(format.error({ kind: 'server_error', status: fault.status ?? 500 }));

  await Promise.race([state.arrive(), new Promise<void>((resolve) => closing.addEventListener('abort', () => resolve(), { once: true }))]);
  await delay(state.latencyMs, closing);
  if (closing.aborted || response.destroyed) return;

  let text: string;
  if (call.jsonSchema !== undefined) {
    // Structured output (the extraction second opinion) answers from the prompt alone, with no variation.
    const structured = structuredAnswer(call.prompt, call.jsonSchema);
    if ('problem' in structured) return reply(format.error({ kind: 'bad_request', status: 400, message: structured.problem }));
    text = structured.text;
  } else {
    const counter = state.nextCounter(format.provider, call.model, call.prompt);
    text = composeAnswer({ prompt: call.prompt, model: call.model, provider: format.provider, seed: state.seed, counter, brandRates: state.brandRates }).text;
  }
  // A structured answer cut by the token limit is broken JSON, as a real vendor's would be.
  const limited = call.maxOutputTokens === undefined ? { text, truncated: false } : truncateToTokens(text, call.maxOutputTokens);
  record.answer = limited.text;
  reply(
    format.success(call, {
      text: limited.text,
      finish: limited.truncated ? 'length' : 'stop',
      inputTokens: estimateTokens(call.inputText || call.prompt) + format.tokenOverhead,
      outputTokens: estimateTokens(limited.text),
      processingMs: performance.now() - startedAt,
    }),
  );
}
