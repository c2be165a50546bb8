import { findBrandsMentioned } from './lookup.js';
import { isRecord } from './wire/read.js';

/**
 * The one structured-output request the service makes: "which brands does this answer name", as
 * `{"brands": string[]}`. The simulator plays a careful model: it lists the world brands written in
 * the prompt (the answer it quotes), as written, in order; it never invents one.
 */
export type StructuredAnswer = { text: string } | { problem: string; param?: string };

/** Whether a JSON Schema asks for an object with a `brands` array (the extraction second opinion's shape). */
export function isBrandListSchema(schema: unknown): boolean {
  if (!isRecord(schema) || !isRecord(schema['properties'])) return false;
  const brands = schema['properties']['brands'];
  return isRecord(brands) && brands['type'] === 'array';
}

/** The JSON text answering a structured-output request, or why the simulator cannot answer it. */
export function structuredAnswer(prompt: string, schema: unknown): StructuredAnswer {
  if (!isBrandListSchema(schema)) {
    return { problem: 'The simulator answers structured output only for a brand list: an object schema with a "brands" array.' };
  }
  return { text: JSON.stringify({ brands: findBrandsMentioned(prompt) }) };
}
