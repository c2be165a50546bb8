import { AuditRequestSchema, type AuditRequest } from '../api/schemas.js';
import type { CrawlHostMap } from '../crawl/index.js';
import { normalizeWebsite } from '../crawl/index.js';
import { normalizeWhitespace } from '../measurements/index.js';
import { RequestValidationError } from './request-error.js';

/** An AuditRequest that passed validation: trimmed, the website normalised to an https URL. */
export interface ValidAuditRequest extends AuditRequest {
  website: string;
  competitorList: string[];
}

const REQUIRED = ['brand', 'website', 'category'] as const;
const TEXT_FIELDS = ['brand', 'website', 'category', 'competitors', 'location', 'promptLanguage', 'email'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a startVisibilityAudit body with the spec's codes: `invalid_body` (not an object, a
 * field of the wrong type or over its bound), `missing_required` (brand, website or category
 * missing or empty), `invalid_website` (not a URL, or not a public host), `invalid_email`.
 */
export function parseAuditRequest(body: unknown, options: { hostMap?: CrawlHostMap | undefined } = {}): ValidAuditRequest {
  if (!isPlainObject(body)) {
    throw new RequestValidationError('invalid_body', 'The body must be a JSON object.', 'Send {"brand": "...", "website": "...", "category": "..."}.');
  }
  const cleaned: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw new RequestValidationError('invalid_body', `${field} must be a string.`, `Send ${field} as a JSON string.`);
    }
    const normalised = normalizeWhitespace(value);
    if (normalised !== '') cleaned[field] = field === 'promptLanguage' ? normalised.toLowerCase() : normalised;
  }
  const missing = REQUIRED.filter((field) => cleaned[field] === undefined);
  if (missing.length > 0) {
    throw new RequestValidationError(
      'missing_required',
      `Missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`,
      'brand, website and category are required.',
    );
  }
  const result = AuditRequestSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = String(issue?.path[0] ?? 'body');
    if (field === 'email') {
      throw new RequestValidationError('invalid_email', 'email is not a valid address of at most 120 characters.', 'Send an address like name@example.com, or leave email out.');
    }
    if (field === 'website') {
      throw new RequestValidationError('invalid_website', 'website is longer than 160 characters.', 'Send the site address, e.g. acme.com.');
    }
    const detail = issue?.code === 'too_big' ? 'is too long' : 'is not an accepted value';
    throw new RequestValidationError('invalid_body', `${field} ${detail}.`, 'Check the field bounds in /openapi.json (AuditRequest).');
  }
  const website = normalizeWebsite(result.data.website, { hostMap: options.hostMap });
  if (!website.ok) {
    throw new RequestValidationError(
      'invalid_website',
      `website cannot be measured: ${website.reason}.`,
      'Send the public address of the brand site, e.g. acme.com or https://www.acme.com.',
    );
  }
  const competitorList = (result.data.competitors ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name, index, all) => name !== '' && all.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === index);
  // Addresses are kept lower-cased so the audit's owner matches the signed-in session's address.
  const email = result.data.email?.toLowerCase();
  return { ...result.data, ...(email === undefined ? {} : { email }), website: website.url, competitorList };
}
