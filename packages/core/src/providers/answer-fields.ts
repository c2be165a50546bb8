import { emptyAnswerFailure } from './failures.js';
import type { Answer, ProviderId, TokenUsage } from './types.js';

/** What a vendor response mapper extracts: everything in an Answer the response itself says. */
export interface AnswerFields {
  /** The model id the response reported (the requested one only if the response named none). */
  model: string;
  text: string;
  usage: TokenUsage;
  /** The vendor's stop/finish reason, kept to explain an empty answer. */
  finishReason: string | undefined;
}

/** Turns mapped fields into a one-attempt Answer, or throws if the response carried no text. */
export function answerFromFields(provider: ProviderId, fields: AnswerFields, latencyMs: number): Answer {
  if (fields.text.trim() === '') {
    throw emptyAnswerFailure(provider, `finish reason: ${fields.finishReason ?? 'unknown'}`);
  }
  return { provider, model: fields.model, text: fields.text, usage: fields.usage, latencyMs, attempts: 1 };
}
