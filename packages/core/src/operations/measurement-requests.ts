// Validation of the quick measurements' bodies with the spec's 400 codes, shared by REST, the site's form,
// the CLI and (through the tool schemas' same bounds) MCP: each refuses exactly what the others refuse.

import type { z } from 'zod';
import { CheckRequestSchema, RepeatRequestSchema, type CheckRequest } from '../api/schemas.js';
import { normalizeWhitespace } from '../measurements/prompts.js';
import type { ProviderId } from '../providers/types.js';
import { RequestValidationError } from './request-error.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstIssue(result: z.ZodSafeParseError<unknown>): z.core.$ZodIssue {
  return result.error.issues[0] as z.core.$ZodIssue;
}

/** Validates a RepeatRequest with the spec's 400 codes; the question comes back normalised. */
export function parseRepeatRequest(body: unknown): { question: string; provider: ProviderId } {
  if (!isPlainObject(body)) {
    throw new RequestValidationError('bad_body', 'The body must be a JSON object with a "question".', 'Send {"question": "...", "provider": "openai"}.');
  }
  const candidate = { ...body, question: typeof body.question === 'string' ? normalizeWhitespace(body.question) : body.question };
  const result = RepeatRequestSchema.safeParse(candidate);
  if (result.success) return { question: result.data.question, provider: result.data.provider };
  const issue = firstIssue(result);
  const field = issue.path[0];
  if (field === 'provider') {
    throw new RequestValidationError('bad_provider', 'provider must be one of openai, gemini, anthropic.', 'Leave provider out to use openai, or pick one of the three.');
  }
  if (field === 'question' && issue.code === 'too_small') {
    throw new RequestValidationError('empty_question', 'The question is empty.', 'Send the buyer question to ask, 1 to 200 characters.');
  }
  if (field === 'question' && issue.code === 'too_big') {
    throw new RequestValidationError('question_too_long', 'The question is longer than 200 characters.', 'Shorten the question to 200 characters or fewer.');
  }
  throw new RequestValidationError('bad_body', 'The body needs a "question" string.', 'Send {"question": "...", "provider": "openai"}.');
}

/**
 * Validates a CheckRequest. The spec gives checkBrandRecognition a single 400 code, so every
 * unreadable check body answers `missing_brand`, with an `error` that says exactly what was wrong.
 */
export function parseCheckRequest(body: unknown): CheckRequest {
  if (!isPlainObject(body)) {
    throw new RequestValidationError('missing_brand', 'The body must be a JSON object with a "brand".', 'Send {"brand": "Acme", "category": "CRM software"}.');
  }
  const brand = typeof body.brand === 'string' ? normalizeWhitespace(body.brand) : body.brand;
  const category = typeof body.category === 'string' ? normalizeWhitespace(body.category) : body.category;
  const result = CheckRequestSchema.safeParse({ ...body, brand, category: category === '' || category === null ? undefined : category });
  if (result.success) return result.data;
  const issue = firstIssue(result);
  const field = issue.path[0];
  if (field === 'category') {
    throw new RequestValidationError('missing_brand', 'category must be a string of at most 120 characters.', 'Shorten the category, or leave it out to check recognition only.');
  }
  if (issue.code === 'too_big') {
    throw new RequestValidationError('missing_brand', 'brand must be at most 80 characters.', 'Send the brand name as buyers write it, up to 80 characters.');
  }
  throw new RequestValidationError('missing_brand', 'The brand is missing or empty.', 'Send {"brand": "Acme", "category": "CRM software"}.');
}
