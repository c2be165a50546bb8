/** Which vendor wire format a request used. */
export type WireProvider = 'openai' | 'anthropic' | 'gemini';
export type WireApi = 'chat.completions' | 'responses' | 'messages' | 'generateContent';

/** The kinds of prompt our measurements send, as the simulator recognises them. */
export type PromptKind = 'recognition' | 'blind_list' | 'recommendation' | 'buyer_question';

/** The languages the simulator answers in (it answers in the prompt's language). */
export type PromptLanguage = 'en' | 'es';

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seeds the world and the run-to-run variation (default 42). */
  seed?: number;
  /** Fixed latency added to every answer, in ms (default 0). */
  latencyMs?: number;
}

/** A fault to inject; faults are consumed in order by matching requests. */
export type FaultSpec =
  | { kind: 'rate_limit'; provider?: WireProvider; times?: number; retryAfterSeconds?: number }
  | { kind: 'server_error'; provider?: WireProvider; times?: number; status?: number }
  | { kind: 'hang'; provider?: WireProvider; times?: number };

/** One request the simulator received (faulted ones included). */
export interface RecordedRequest {
  provider: WireProvider;
  api: WireApi;
  path: string;
  model: string;
  /** The user prompt text, as the simulator read it from the body. */
  prompt: string;
  kind: PromptKind;
  headers: Record<string, string>;
  body: unknown;
  /** The status the simulator answered (0 for a hang, and while the answer is still pending). */
  status: number;
  receivedAt: number;
  /** The language the simulator detected in the prompt. */
  language: PromptLanguage;
  /** The answer text sent back, when the request was answered normally. */
  answer?: string;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:4123 */
  readonly url: string;
  /** Base URLs to hand each official SDK: openai gets `${url}/v1`, the others `url`. */
  readonly baseUrls: Record<WireProvider, string>;
  requests(): RecordedRequest[];
  clearRequests(): void;
  injectFaults(faults: FaultSpec[]): void;
  clearFaults(): void;
  setLatency(ms: number): void;
  /**
   * Shifts the world: every answer that lists brands of the brand's category names it with this probability
   * (0 to 1), drawn per call. `undefined` restores the world's own preference.
   */
  setBrandRate(brand: string, rate: number | undefined): void;
  /**
   * Holds every answer until `count` provider requests have arrived, then answers them all; resolves then.
   * Proves a client asks concurrently by the order of events, not by wall time.
   */
  holdAnswersUntil(count: number): Promise<void>;
  /** Forgets requests, faults and the per-prompt call counters, so answers replay from the start. */
  reset(): void;
  close(): Promise<void>;
}
