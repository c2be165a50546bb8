import type { RunningSimulator, WireProvider } from '../types.js';

export type VendorApi = 'chat' | 'responses' | 'messages' | 'gemini';

export const DEFAULT_MODELS: Readonly<Record<VendorApi, string>> = {
  chat: 'demo-gpt-4.1-mini',
  responses: 'demo-gpt-4.1-mini',
  messages: 'demo-claude-sonnet',
  gemini: 'demo-gemini-flash',
};

export const API_PROVIDER: Readonly<Record<VendorApi, WireProvider>> = {
  chat: 'openai',
  responses: 'openai',
  messages: 'anthropic',
  gemini: 'gemini',
};

export interface VendorCallOptions {
  model?: string;
  /** Omit the API key header to test the 401 path. */
  withoutKey?: boolean;
  /** Extra fields merged into the body. */
  extra?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** The path, headers and body each vendor's SDK would send for one user prompt. */
export function vendorRequest(simulator: RunningSimulator, api: VendorApi, prompt: string, options: VendorCallOptions = {}): { url: string; init: RequestInit } {
  const model = options.model ?? DEFAULT_MODELS[api];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let url: string;
  let body: Record<string, unknown>;
  switch (api) {
    case 'chat':
      url = `${simulator.baseUrls.openai}/chat/completions`;
      if (!options.withoutKey) headers['authorization'] = 'Bearer sk-test';
      body = { model, messages: [{ role: 'user', content: prompt }], temperature: 0 };
      break;
    case 'responses':
      url = `${simulator.baseUrls.openai}/responses`;
      if (!options.withoutKey) headers['authorization'] = 'Bearer sk-test';
      body = { model, input: prompt, temperature: 0 };
      break;
    case 'messages':
      url = `${simulator.baseUrls.anthropic}/v1/messages`;
      headers['anthropic-version'] = '2023-06-01';
      if (!options.withoutKey) headers['x-api-key'] = 'sk-ant-test';
      body = { model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }], temperature: 0 };
      break;
    case 'gemini':
      url = `${simulator.baseUrls.gemini}/v1beta/models/${model}:generateContent`;
      if (!options.withoutKey) headers['x-goog-api-key'] = 'AIza-test';
      body = { contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { temperature: 0 } };
      break;
  }
  const init: RequestInit = { method: 'POST', headers, body: JSON.stringify({ ...body, ...options.extra }) };
  if (options.signal) init.signal = options.signal;
  return { url, init };
}

/** Sends one prompt in a vendor's format and returns status, headers and parsed JSON. */
export async function callVendor(
  simulator: RunningSimulator,
  api: VendorApi,
  prompt: string,
  options: VendorCallOptions = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const { url, init } = vendorRequest(simulator, api, prompt, options);
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, unknown> };
}

/** Pulls the answer text out of any vendor's success body. */
export function answerText(api: VendorApi, json: Record<string, unknown>): string {
  // Vendor JSON is untyped here; the shape tests check these paths exist.
  const body = json as any;
  switch (api) {
    case 'chat':
      return String(body.choices[0].message.content);
    case 'responses':
      return String(body.output[0].content[0].text);
    case 'messages':
      return String(body.content[0].text);
    case 'gemini':
      return String(body.candidates[0].content.parts[0].text);
  }
}

/** Asks one prompt and returns the answer text, failing loudly on a non-200. */
export async function ask(simulator: RunningSimulator, api: VendorApi, prompt: string, options: VendorCallOptions = {}): Promise<string> {
  const { status, json } = await callVendor(simulator, api, prompt, options);
  if (status !== 200) throw new Error(`expected 200, got ${status}: ${JSON.stringify(json)}`);
  return answerText(api, json);
}

/** The names in a numbered list, in order: the bold part of buyer answers, the whole line of blind lists. */
export function listedBrands(text: string): string[] {
  return [...text.matchAll(/^\d+\.\s+(?:\*\*(.+?)\*\*.*|(.+))$/gm)].map((match) => (match[1] ?? match[2] ?? '').trim());
}
