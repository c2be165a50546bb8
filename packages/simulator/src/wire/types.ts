import type { WireApi, WireProvider } from '../types.js';

/** What the simulator needs from a vendor request, read leniently from any body. */
export interface WireRequest {
  model: string;
  /** The last user message's text: what the answer responds to. */
  prompt: string;
  /** All the text sent (system, history, prompt), for the input token count. */
  inputText: string;
  maxOutputTokens: number | undefined;
  temperature: number | undefined;
  stream: boolean;
  /** The JSON Schema the answer must follow, when the request asked for structured output. */
  jsonSchema: unknown;
}

/** The answer to send, already cut to the token limit. */
export interface AnsweredText {
  text: string;
  finish: 'stop' | 'length';
  inputTokens: number;
  outputTokens: number;
  processingMs: number;
}

export type WireErrorKind = 'missing_key' | 'invalid_key' | 'bad_request' | 'rate_limit' | 'server_error' | 'not_found';

export interface WireError {
  kind: WireErrorKind;
  status: number;
  message?: string;
  /** The request field at fault, for bad requests. */
  param?: string;
  retryAfterSeconds?: number;
  model?: string;
  method?: string;
  path?: string;
}

/** A status, headers and JSON body ready to send. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What a request carried as credentials. */
export type Credential = { kind: 'missing' } | { kind: 'present'; value: string };

/** One vendor API's wire format. */
export interface WireFormat {
  readonly provider: WireProvider;
  readonly api: WireApi;
  /** Tokens the vendor adds to the input count for message framing. */
  readonly tokenOverhead: number;
  /** Reads model, prompt and limits; never throws, whatever the body. */
  read(body: unknown, modelFromPath: string | undefined): WireRequest;
  /** Why the vendor would reject the body (400), or undefined when it is acceptable. */
  problem(body: unknown, streamingPath: boolean): { message: string; param?: string } | undefined;
  credential(headers: Record<string, string>, query: URLSearchParams): Credential;
  success(request: WireRequest, answer: AnsweredText): WireReply;
  error(error: WireError): WireReply;
}
