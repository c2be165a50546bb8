// The real vendor SDKs, driven through our adapters, against the provider simulator on loopback.
import { openaiSnapshot, startSimulator, type RunningSimulator, type WireApi, type WireProvider } from '@visibility/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterOptions } from './adapter-options.js';
import { AnthropicProvider } from './anthropic.js';
import { withConcurrencyLimit } from './concurrency.js';
import { createProviderLineup } from './create-providers.js';
import { GeminiProvider } from './gemini.js';
import { OpenAIProvider } from './openai.js';
import { withRetries } from './retries.js';
import { ProviderFailure, type Answer, type Provider, type ProviderId } from './types.js';

const PROMPT = 'What is the best CRM software for a small marketing agency? Please explain briefly.';

/** What a vendor response said, as JSON. */
type Json = Record<string, unknown>;

interface Vendor {
  name: string;
  id: ProviderId;
  wire: WireProvider;
  api: WireApi;
  model: string;
  build(simulator: RunningSimulator, options?: Partial<AdapterOptions>): Provider;
  /** The model id the raw response reported. */
  reportedModel(body: Json): unknown;
  /** Asserts the request body carries the prompt verbatim and nothing that steers the answer. */
  expectPlainRequest(body: Json): void;
}

const vendors: Vendor[] = [
  {
    name: 'openai (chat completions)',
    id: 'openai',
    wire: 'openai',
    api: 'chat.completions',
    model: 'gpt-4.1-mini',
    build: (simulator, options) =>
      new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: simulator.baseUrls.openai, ...options }),
    reportedModel: (body) => body['model'],
    expectPlainRequest: (body) => {
      expect(body['messages']).toEqual([{ role: 'user', content: PROMPT }]);
      expect(body['temperature']).toBe(0);
      for (const key of ['tools', 'tool_choice', 'functions', 'web_search_options', 'stream']) expect(body).not.toHaveProperty(key);
    },
  },
  {
    name: 'openai (responses)',
    id: 'openai',
    wire: 'openai',
    api: 'responses',
    model: 'gpt-4.1-mini',
    build: (simulator, options) =>
      new OpenAIProvider({ apiKey: 'sk-test', model: 'gpt-4.1-mini', baseURL: simulator.baseUrls.openai, api: 'responses', ...options }),
    reportedModel: (body) => body['model'],
    expectPlainRequest: (body) => {
      expect(body['input']).toEqual([{ role: 'user', content: PROMPT }]);
      expect(body['temperature']).toBe(0);
      for (const key of ['instructions', 'tools', 'tool_choice', 'stream']) expect(body).not.toHaveProperty(key);
    },
  },
  {
    name: 'anthropic (messages)',
    id: 'anthropic',
    wire: 'anthropic',
    api: 'messages',
    model: 'claude-sonnet-4-6',
    build: (simulator, options) =>
      new AnthropicProvider({ apiKey: 'sk-ant-test', model: 'claude-sonnet-4-6', baseURL: simulator.baseUrls.anthropic, ...options }),
    reportedModel: (body) => body['model'],
    expectPlainRequest: (body) => {
      expect(body['messages']).toEqual([{ role: 'user', content: PROMPT }]);
      // API version 2026-10-21 refuses sampling parameters, so none is sent (see docs/providers.md).
      for (const key of ['system', 'temperature', 'top_p', 'top_k', 'tools', 'tool_choice', 'stream']) expect(body).not.toHaveProperty(key);
    },
  },
  {
    name: 'gemini (generateContent)',
    id: 'gemini',
    wire: 'gemini',
    api: 'generateContent',
    model: 'gemini-2.5-flash',
    build: (simulator, options) =>
      new GeminiProvider({ apiKey: 'AIza-test', model: 'gemini-2.5-flash', baseURL: simulator.baseUrls.gemini, ...options }),
    reportedModel: (body) => body['modelVersion'],
    expectPlainRequest: (body) => {
      expect(body['contents']).toEqual([{ role: 'user', parts: [{ text: PROMPT }] }]);
      expect(body['generationConfig']).toMatchObject({ temperature: 0 });
      for (const key of ['systemInstruction', 'tools', 'toolConfig']) expect(body).not.toHaveProperty(key);
    },
  },
];

/** A fetch that keeps every successful response body, so a test can compare the Answer with the raw response. */
function capturingFetch(): { fetch: typeof fetch; bodies: Json[] } {
  const bodies: Json[] = [];
  return {
    bodies,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.ok) bodies.push((await response.clone().json()) as Json);
      return response;
    },
  };
}

/** A sleep that records what it was asked to wait and returns at once (sleep.test.ts covers the real one). */
function recordingSleep(): { delays: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
    },
  };
}

const noSleep = async (): Promise<void> => {};

async function failureOf(promise: Promise<Answer>): Promise<ProviderFailure> {
  const outcome = await promise.then(
    (answer) => answer,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ProviderFailure)) throw new Error(`expected a ProviderFailure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 7, latencyMs: 0 });
});

afterAll(async () => {
  await simulator.close();
});

beforeEach(() => {
  simulator.clearFaults();
  simulator.clearRequests();
  simulator.setLatency(0);
});

describe.each(vendors)('$name against the simulator', (vendor) => {
  it('answers a prompt with text, the model the response reported, usage and latency', async () => {
    const capture = capturingFetch();
    const answer = await vendor.build(simulator, { fetch: capture.fetch }).ask({ prompt: PROMPT });
    expect(answer.provider).toBe(vendor.id);
    expect(answer.text.trim().length).toBeGreaterThan(0);
    expect(capture.bodies).toHaveLength(1);
    expect(answer.model).toBe(vendor.reportedModel(capture.bodies[0] ?? {}));
    expect(answer.usage.inputTokens).toBeGreaterThan(0);
    expect(answer.usage.outputTokens).toBeGreaterThan(0);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(answer.attempts).toBe(1);
  });

  it('sends the prompt verbatim as the only user message, with no system prompt, tools or web search', async () => {
    await vendor.build(simulator).ask({ prompt: PROMPT, maxOutputTokens: 300 });
    const [request] = simulator.requests();
    expect(request).toBeDefined();
    expect(request?.provider).toBe(vendor.wire);
    expect(request?.api).toBe(vendor.api);
    expect(request?.model).toBe(vendor.model);
    expect(request?.prompt).toBe(PROMPT);
    vendor.expectPlainRequest(request?.body as Json);
  });

  it('waits out a 429 retry-after, then succeeds on the second attempt', async () => {
    simulator.injectFaults([{ kind: 'rate_limit', provider: vendor.wire, times: 1, retryAfterSeconds: 1 }]);
    const recording = recordingSleep();
    // random 0 makes the jittered backoff 0 ms, so any wait can only come from retry-after.
    const provider = withRetries(vendor.build(simulator), { maxRetries: 2, random: () => 0, sleep: recording.sleep });
    const answer = await provider.ask({ prompt: PROMPT });
    expect(answer.attempts).toBe(2);
    // The one wait is the simulator's retry-after (1 s), asked of the sleep withRetries was given.
    expect(recording.delays).toEqual([1000]);
    expect(simulator.requests().map((request) => request.status)).toEqual([429, 200]);
  });

  it('gives up on repeated 500s after exactly maxRetries + 1 requests, as overloaded', async () => {
    simulator.injectFaults([{ kind: 'server_error', provider: vendor.wire, times: 10, status: 500 }]);
    const provider = withRetries(vendor.build(simulator), { maxRetries: 2, sleep: noSleep });
    const failure = await failureOf(provider.ask({ prompt: PROMPT }));
    expect(failure).toMatchObject({ kind: 'overloaded', provider: vendor.id, status: 500, retryable: true, attempts: 3 });
    expect(simulator.requests().map((request) => request.status)).toEqual([500, 500, 500]);
  });

  it('turns a hang into a timeout after the per-attempt deadline', async () => {
    simulator.injectFaults([{ kind: 'hang', provider: vendor.wire, times: 1 }]);
    const started = performance.now();
    const failure = await failureOf(vendor.build(simulator, { timeoutMs: 300 }).ask({ prompt: PROMPT }));
    const elapsed = performance.now() - started;
    expect(failure).toMatchObject({ kind: 'timeout', provider: vendor.id, retryable: true });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
  });

  it('treats a rejected key as unavailable and does not retry it', async () => {
    // The simulator refuses keys starting with "invalid" (401; Gemini answers 400 API_KEY_INVALID, as Google does).
    const provider = withRetries(vendor.build(simulator, { apiKey: 'invalid-key' }), { maxRetries: 2, sleep: noSleep });
    const failure = await failureOf(provider.ask({ prompt: PROMPT }));
    expect(failure).toMatchObject({ kind: 'unavailable', provider: vendor.id, retryable: false, attempts: 1 });
    expect(failure.status).toBe(vendor.wire === 'gemini' ? 400 : 401);
    expect(simulator.requests()).toHaveLength(1);
  });

  it('keeps at most the cap in flight while fanning out', async () => {
    const latencyMs = 150;
    simulator.setLatency(latencyMs);
    const adapter = vendor.build(simulator);
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: Provider = {
      id: adapter.id,
      model: adapter.model,
      async ask(request) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await adapter.ask(request);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const limited = withConcurrencyLimit(counting, 2);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => limited.ask({ prompt: `${PROMPT} (${index})` })));
    const elapsed = performance.now() - started;
    expect(answers.every((answer) => answer.text.length > 0)).toBe(true);
    expect(maxInFlight).toBe(2);
    // Six calls two at a time is three rounds of the simulator's latency.
    expect(elapsed).toBeGreaterThanOrEqual(3 * latencyMs - 10);
    expect(simulator.requests()).toHaveLength(6);
  });
});

describe('a real adapter cut off by the caller', () => {
  it("rejects with the caller's reason, not a ProviderFailure, and is not retried", async () => {
    simulator.injectFaults([{ kind: 'hang', provider: 'openai', times: 1 }]);
    const controller = new AbortController();
    const provider = withRetries(vendors[0]!.build(simulator, { timeoutMs: 5000 }), { maxRetries: 2, sleep: noSleep });
    const asking = provider.ask({ prompt: PROMPT, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('measurement cancelled')), 100);
    await expect(asking).rejects.toThrow('measurement cancelled');
    expect(simulator.requests()).toHaveLength(1);
  });
});

describe('createProviderLineup against the simulator', () => {
  it('builds all three providers, each retrying a rate limit under its cap', async () => {
    simulator.injectFaults([
      { kind: 'rate_limit', provider: 'openai', times: 1, retryAfterSeconds: 0 },
      { kind: 'rate_limit', provider: 'anthropic', times: 1, retryAfterSeconds: 0 },
      { kind: 'rate_limit', provider: 'gemini', times: 1, retryAfterSeconds: 0 },
    ]);
    const lineup = createProviderLineup(
      {
        openai: { apiKey: 'sk-test', baseURL: simulator.baseUrls.openai, model: 'gpt-4.1-mini' },
        anthropic: { apiKey: 'sk-ant-test', baseURL: simulator.baseUrls.anthropic, model: 'claude-sonnet-4-6' },
        gemini: { apiKey: 'AIza-test', baseURL: simulator.baseUrls.gemini, model: 'gemini-2.5-flash' },
      },
      { timeoutMs: 5000, maxRetries: 2, maxConcurrentPerProvider: 2, retry: { sleep: noSleep } },
    );
    expect([...lineup.keys()].sort()).toEqual(['anthropic', 'gemini', 'openai']);
    const answers = await Promise.all([...lineup.values()].map((provider) => provider.ask({ prompt: PROMPT })));
    for (const answer of answers) {
      expect(answer.attempts).toBe(2);
      expect(answer.text.length).toBeGreaterThan(0);
    }
    expect(answers.find((answer) => answer.provider === 'openai')?.model).toBe(openaiSnapshot('gpt-4.1-mini'));
    expect(simulator.requests()).toHaveLength(6);
  });
});
