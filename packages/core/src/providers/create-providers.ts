import { AnthropicProvider } from './anthropic.js';
import { withConcurrencyLimit } from './concurrency.js';
import { GeminiProvider } from './gemini.js';
import { OpenAIProvider, type OpenAIApi } from './openai.js';
import { withRetries, type RetryOptions } from './retries.js';
import { PROVIDER_IDS, type Provider, type ProviderId } from './types.js';

/** How to reach one provider. */
export interface ProviderSettings {
  apiKey: string;
  /** Overrides the SDK's default endpoint (OpenAI's includes `/v1`). */
  baseURL?: string | undefined;
  model: string;
  /** OpenAI only: Chat Completions (default) or the Responses API. */
  api?: OpenAIApi | undefined;
}

/** Per-adapter knobs shared by every provider in a lineup. */
export interface AdapterTuning {
  /** Deadline for one attempt, in ms (default 30 s). */
  timeoutMs?: number | undefined;
  /** Default answer-length cap (default 1024 tokens). */
  maxOutputTokens?: number | undefined;
}

export interface LineupOptions extends AdapterTuning {
  maxRetries: number;
  maxConcurrentPerProvider: number;
  /** Backoff details beyond `maxRetries` (delays, jitter and sleep for tests). */
  retry?: Omit<RetryOptions, 'maxRetries'>;
}

/** Builds the bare adapter for one provider: one attempt per ask, no retries, no concurrency cap. */
export function createProvider(id: ProviderId, settings: ProviderSettings, tuning: AdapterTuning = {}): Provider {
  const options = { ...tuning, apiKey: settings.apiKey, baseURL: settings.baseURL, model: settings.model };
  switch (id) {
    case 'openai':
      return new OpenAIProvider({ ...options, api: settings.api });
    case 'anthropic':
      return new AnthropicProvider(options);
    case 'gemini':
      return new GeminiProvider(options);
    default:
      return assertNever(id);
  }
}

/** Builds every configured provider as concurrency(retries(adapter)); unconfigured ones are left out. */
export function createProviderLineup(
  settings: Partial<Record<ProviderId, ProviderSettings | undefined>>,
  options: LineupOptions,
): Map<ProviderId, Provider> {
  const lineup = new Map<ProviderId, Provider>();
  for (const id of PROVIDER_IDS) {
    const providerSettings = settings[id];
    if (providerSettings === undefined) continue;
    const adapter = createProvider(id, providerSettings, { timeoutMs: options.timeoutMs, maxOutputTokens: options.maxOutputTokens });
    // Concurrency outside retries: a call keeps its slot while it backs off, so a rate-limited
    // provider is not hit by fresh calls during the very wait it asked for.
    const retrying = withRetries(adapter, { ...options.retry, maxRetries: options.maxRetries });
    lineup.set(id, withConcurrencyLimit(retrying, options.maxConcurrentPerProvider));
  }
  return lineup;
}

function assertNever(value: never): never {
  throw new Error(`unknown provider: ${String(value)}`);
}
