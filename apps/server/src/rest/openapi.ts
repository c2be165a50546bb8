import { z } from 'zod';
import {
  ApiErrorSchema,
  AuditRequestSchema,
  AuditResponseSchema,
  CheckRequestSchema,
  CheckResponseSchema,
  FanoutMapRequestSchema,
  FanoutMapResponseSchema,
  PUBLIC_SCHEMAS,
  RepeatRequestSchema,
  RepeatResponseSchema,
} from '@visibility/core';
import { WATCH_PATHS, WATCH_SCHEMAS } from './watch-openapi.js';

type JsonObject = Record<string, unknown>;

const ref = (schema: z.ZodType): JsonObject => ({ $ref: `#/components/schemas/${schemaId(schema)}` });

function schemaId(schema: z.ZodType): string {
  const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
  if (id === undefined) throw new Error('every public schema carries a meta id');
  return id;
}

const rateLimitHeaders: JsonObject = {
  'X-RateLimit-Remaining': { description: 'Calls left in the window.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'When the window resets.', schema: { type: 'string', format: 'date-time' } },
};

const retryAfterHeader: JsonObject = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
};

function errorResponse(description: string, withRetryAfter = false): JsonObject {
  return {
    description,
    ...(withRetryAfter ? { headers: retryAfterHeader } : {}),
    content: { 'application/json': { schema: ref(ApiErrorSchema) } },
  };
}

function jsonBody(schema: z.ZodType, required = true): JsonObject {
  return { required, content: { 'application/json': { schema: ref(schema) } } };
}

function jsonResponse(description: string, schema: z.ZodType, headers?: JsonObject): JsonObject {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: ref(schema) } } };
}

const auditIdParameter: JsonObject = {
  name: 'auditId',
  in: 'path',
  required: true,
  description: 'The `id` from AuditResponse.',
  schema: { type: 'string', format: 'uuid' },
};

const REQUEST_SCHEMAS: ReadonlySet<z.ZodType> = new Set([RepeatRequestSchema, CheckRequestSchema, AuditRequestSchema, FanoutMapRequestSchema]);

function generateSchemas(io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const schema of PUBLIC_SCHEMAS) registry.add(schema, { id: schemaId(schema) });
  const generated = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io, unrepresentable: 'any' }) as {
    schemas: Record<string, JsonObject>;
  };
  return generated.schemas;
}

/**
 * Components generated from the zod schemas the handlers validate with. Request bodies are described
 * as clients may send them (defaults optional), responses as the service writes them.
 */
function componentSchemas(): JsonObject {
  const inputs = generateSchemas('input');
  const outputs = generateSchemas('output');
  const schemas: Record<string, JsonObject> = {};
  for (const schema of PUBLIC_SCHEMAS) {
    const id = schemaId(schema);
    const { $schema: _schema, $id: _id, ...rest } = (REQUEST_SCHEMAS.has(schema) ? inputs[id] : outputs[id]) ?? {};
    schemas[id] = rest;
  }
  return schemas;
}

/** The OpenAPI 3.1 description of the six public operations, for /openapi.json. */
/** The conditional-request header of the cheap reads (getBuyerQuestionMap, getVisibilityBadge). */
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The `ETag` of an earlier answer: answered 304 while it is still current.',
  schema: { type: 'string' },
} as const;
const ETAG_HEADER = { description: 'A strong tag of the exact bytes of the answer.', schema: { type: 'string' } } as const;

export function buildOpenApiDocument(baseUrl: string): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'AI Visibility API',
      version: '1.0.0',
      summary: 'Measures whether AI assistants recommend a brand.',
      description:
        'Every operation answers without an account, an API key or a session cookie, except re-running an existing buyer-question map. ' +
        'Every measurement costs money at the model providers, so all operations share strict per-caller limits and one monthly provider budget. ' +
        'Treat 429 and 503 as ordinary states: both carry a `code` and a `hint`. Errors are always JSON. ' +
        'Watches (tracking a brand over time) belong to a signed-in account: those operations need the session cookie.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'AI Visibility', url: `${baseUrl}/contact` },
    },
    servers: [{ url: baseUrl }],
    security: [],
    tags: [
      { name: 'measurements', description: 'Live measurements against model providers.' },
      { name: 'embeds', description: 'Embeddable results.' },
      { name: 'tracking', description: 'Watches: a brand re-measured on a schedule, its trend with intervals and the changes that are real (signed-in owner).' },
    ],
    paths: {
      '/api/tools/repeat': {
        post: {
          operationId: 'runRepeatedBuyerQuestion',
          tags: ['measurements'],
          summary: 'Ask one buyer question 5 times against one model',
          description:
            'Runs the question 5 times against one model with temperature 0 and no web search; reports which brands were named every time, which only once, and the Jaccard overlap between run pairs.',
          requestBody: jsonBody(RepeatRequestSchema),
          responses: {
            '200': jsonResponse('The runs and their repeatability.', RepeatResponseSchema, rateLimitHeaders),
            '400': errorResponse('`bad_body`, `empty_question`, `question_too_long`, `bad_provider` or `provider_unavailable`.'),
            '429': errorResponse('`rate_limited` (per-IP hourly limit) or `daily_cap` (shared daily cap).', true),
            '503': errorResponse('`budget` (monthly budget used up) or `provider_unavailable` (model not configured).', true),
          },
        },
      },
      '/api/check': {
        post: {
          operationId: 'checkBrandRecognition',
          tags: ['measurements'],
          summary: 'One model, one pass: recognition, blind list, recommendation',
          description:
            'Does the model recognise the brand, does it name it in a blind list for the category (built from a prompt that never mentions the brand), would it recommend it. Fast and shallow; no site crawl.',
          requestBody: jsonBody(CheckRequestSchema),
          responses: {
            '200': jsonResponse('The check.', CheckResponseSchema),
            '400': errorResponse('`missing_brand`.'),
            '429': errorResponse('`rate_limited` (per-IP hourly or daily limit).', true),
            '503': errorResponse('`not_configured`, `provider_paused`, `provider_overloaded` or `budget`.', true),
          },
        },
      },
      '/api/audit': {
        post: {
          operationId: 'startVisibilityAudit',
          tags: ['measurements'],
          summary: 'Full free snapshot of a brand',
          description:
            'Crawls the brand site, classifies the vertical, asks several providers repeating each prompt, and returns per-provider findings, a score, competitors named instead, and next steps. Synchronous; takes 15 to 60 seconds (set a client timeout of at least 90 seconds). When `email` is given, the result is sent there.',
          requestBody: jsonBody(AuditRequestSchema),
          responses: {
            '200': jsonResponse('The audit.', AuditResponseSchema, rateLimitHeaders),
            '400': errorResponse('`invalid_body`, `missing_required`, `invalid_website` or `invalid_email`.'),
            '429': errorResponse('`rate_limited` (per-caller hourly or daily limit).', true),
            '500': errorResponse('`server_error`: the audit could not be completed.'),
            '503': errorResponse('`store_unavailable`: the audit ran but saving failed even after one retry; retry in a minute.', true),
          },
        },
      },
      '/api/audit/{auditId}': {
        parameters: [auditIdParameter],
        get: {
          operationId: 'getVisibilityAudit',
          tags: ['measurements'],
          summary: 'Read a stored audit again',
          description:
            'The stored AuditResponse of POST /api/audit, with its `reportUrl`; never measures again and never spends. Opens with the `key` of the `reportUrl` (or for the signed-in owner); without it the answer is the same 404 as for an unknown id.',
          security: [{}, { sessionCookie: [] }],
          parameters: [
            {
              name: 'key',
              in: 'query',
              required: false,
              description: 'The private key from `reportUrl` (`…/report/{auditId}?key=…`).',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': jsonResponse('The stored audit.', AuditResponseSchema),
            '404': errorResponse('`audit_not_found`: no audit with that id, or the key does not open it.'),
          },
        },
      },
      '/api/audit/{auditId}/fanout-map': {
        parameters: [auditIdParameter],
        post: {
          operationId: 'startBuyerQuestionMap',
          tags: ['measurements'],
          summary: "Ask the audit's buyer questions to each provider",
          description:
            'Asks the generated buyer questions live to each configured provider and stores the grid. Takes up to 60 seconds; idempotent. A client may poll getBuyerQuestionMap instead of holding the connection. Re-running an existing map (`rerun: true`) needs the signed-in owner and costs one credit.',
          security: [{}, { sessionCookie: [] }],
          requestBody: jsonBody(FanoutMapRequestSchema, false),
          responses: {
            '200': jsonResponse('The stored map, or the running state.', FanoutMapResponseSchema),
            '400': errorResponse('`invalid_body`: the optional body is not a JSON object with a boolean `rerun`.'),
            '401': errorResponse('`unauthorized`: re-run without a signed-in owner.'),
            '402': errorResponse('`no_credits`: the signed-in owner has no credit left for a re-run.'),
            '404': errorResponse('`audit_not_found`.'),
            '409': errorResponse('`no_fanout`: the audit produced no buyer questions.'),
            '429': errorResponse('`rate_limited` (per-caller limit).', true),
          },
        },
        get: {
          operationId: 'getBuyerQuestionMap',
          tags: ['measurements'],
          summary: 'Read the stored buyer-question map',
          description:
            'Reads the stored map, or a running state. Never spends provider money. When `map` is absent the measurement is still running; poll every few seconds. Send the last `ETag` as `If-None-Match` to get 304 without the body while the answer is unchanged (a 304 still counts against the per-caller limit).',
          parameters: [IF_NONE_MATCH],
          responses: {
            '200': { ...jsonResponse('The map, or the running state.', FanoutMapResponseSchema), headers: { ETag: ETAG_HEADER, 'Cache-Control': { description: '`public, no-cache`: may be kept, must be revalidated.', schema: { type: 'string' } } } },
            '304': { description: 'Not modified: the `If-None-Match` tag is the current answer.', headers: { ETag: ETAG_HEADER } },
            '404': errorResponse('`audit_not_found`.'),
            '429': errorResponse('`rate_limited` (per-caller limit).', true),
          },
        },
      },
      '/api/badge/{token}': {
        get: {
          operationId: 'getVisibilityBadge',
          tags: ['embeds'],
          summary: 'SVG badge saying the brand was measured',
          description: 'For embedding on the brand site. Cached for a day; falls back to a re-check state 60 days after the last run.',
          parameters: [
            { name: 'token', in: 'path', required: true, description: 'A badge token minted from a report.', schema: { type: 'string' } },
            IF_NONE_MATCH,
          ],
          responses: {
            '200': {
              description: 'The badge.',
              headers: { 'Cache-Control': { description: 'Cached for a day.', schema: { type: 'string' } }, ETag: ETAG_HEADER },
              content: { 'image/svg+xml': { schema: { type: 'string' } } },
            },
            '304': { description: 'Not modified: the badge still looks the way the `If-None-Match` tag says.', headers: { ETag: ETAG_HEADER } },
            '404': {
              description: 'Unknown token; still an SVG so an embed never shows a broken image.',
              content: { 'image/svg+xml': { schema: { type: 'string' } } },
            },
          },
        },
      },
      ...WATCH_PATHS,
    },
    components: {
      schemas: { ...componentSchemas(), ...WATCH_SCHEMAS },
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sb-access-token',
          description: 'Set by signing in on the site; needed to re-run an existing buyer-question map and for watches.',
        },
      },
    },
  };
}
