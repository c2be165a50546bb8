// The watch operations in /openapi.json (docs/tracking.md): signed-in owner only, so each carries the
// sessionCookie requirement. Kept in its own module so the public document's builder only spreads it in.

type JsonObject = Record<string, unknown>;

const API_ERROR = { $ref: '#/components/schemas/ApiError' };
const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string): JsonObject => ({ description, content: { 'application/json': { schema: API_ERROR } } });
const json = (description: string, schema: JsonObject): JsonObject => ({ description, content: { 'application/json': { schema } } });
const SIGNED_IN = [{ sessionCookie: [] }];
const PROVIDER = { type: 'string', enum: ['openai', 'gemini', 'anthropic'] };
const RATE = { type: ['number', 'null'], minimum: 0, maximum: 1 };
const UNIT = { type: 'number', minimum: 0, maximum: 1 };

const watchIdParameter = { name: 'watchId', in: 'path', required: true, description: 'The `id` of a watch.', schema: { type: 'string', format: 'uuid' } };
const common401 = error('`unauthorized`: no valid session cookie.');
const common404 = error('`watch_not_found`: no such watch in your account (another account\'s watch answers the same).');
const common403 = error('`cross_origin`: a browser request from another site.');

/** Component schemas of the watch operations. */
export const WATCH_SCHEMAS: Record<string, JsonObject> = {
  WatchAlert: {
    type: 'object',
    properties: {
      email: { type: 'boolean', description: 'Mail the owner when a change is detected (default true).' },
      webhookUrl: { type: ['string', 'null'], format: 'uri', maxLength: 500, description: 'Public http(s) URL POSTed each change; private, loopback and non-http(s) URLs are refused.' },
    },
  },
  WatchRequest: {
    type: 'object',
    required: ['brand', 'category', 'schedule'],
    properties: {
      brand: { type: 'string', minLength: 1, maxLength: 80 },
      category: { type: 'string', minLength: 1, maxLength: 120 },
      website: { type: 'string', maxLength: 160, description: 'The brand site; read for the default questions, and its domain counts as naming the brand.' },
      questions: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 200 }, description: 'Default: the buyer questions an audit of the brand and category asks.' },
      providers: { type: 'array', minItems: 1, items: PROVIDER, description: 'Default: every configured provider.' },
      schedule: { type: 'string', enum: ['daily', 'weekly'] },
      samples: { type: 'integer', minimum: 1, maximum: 5, default: 3, description: 'Times each question is asked to each provider per run.' },
      alert: ref('WatchAlert'),
    },
  },
  WatchPatch: {
    type: 'object',
    properties: { schedule: { type: 'string', enum: ['daily', 'weekly'] }, paused: { type: 'boolean' }, alert: ref('WatchAlert') },
    additionalProperties: false,
  },
  Watch: {
    type: 'object',
    required: ['id', 'brand', 'category', 'questions', 'providers', 'samples', 'schedule', 'paused', 'nextRunAt', 'createdAt', 'alert'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      brand: { type: 'string' },
      category: { type: 'string' },
      website: { type: ['string', 'null'] },
      questions: { type: 'array', items: { type: 'string' } },
      providers: { type: 'array', items: PROVIDER },
      samples: { type: 'integer' },
      schedule: { type: 'string', enum: ['daily', 'weekly'] },
      paused: { type: 'boolean' },
      nextRunAt: { type: 'string', format: 'date-time' },
      createdAt: { type: 'string', format: 'date-time' },
      alert: ref('WatchAlert'),
      webhookSecret: { type: 'string', description: 'Only in the answer of POST /api/watches, once: the key of the X-Visibility-Signature HMAC.' },
      alertLog: {
        type: 'array',
        description: 'Only in getWatch: every alert try, oldest first.',
        items: {
          type: 'object',
          properties: {
            alertId: { type: 'string' },
            channel: { type: 'string', enum: ['email', 'webhook'] },
            runId: { type: 'string' },
            tryNumber: { type: 'integer' },
            triedAt: { type: 'string', format: 'date-time' },
            ok: { type: 'boolean' },
            httpStatus: { type: ['integer', 'null'] },
            error: { type: ['string', 'null'] },
          },
        },
      },
    },
  },
  WatchChange: {
    type: 'object',
    required: ['at', 'runId', 'provider', 'kind', 'from', 'to', 'effect', 'fromInterval', 'toInterval', 'pValue', 'threshold', 'direction'],
    properties: {
      at: { type: 'string', format: 'date-time' },
      runId: { type: 'string', format: 'uuid' },
      provider: { type: 'string', enum: ['openai', 'gemini', 'anthropic', 'overall'] },
      kind: { type: 'string', enum: ['mention_rate', 'new_competitor', 'dropped_out'] },
      competitor: { type: 'string', description: 'The competitor, for new_competitor and a competitor that dropped out.' },
      from: UNIT,
      to: UNIT,
      effect: { type: 'number', description: 'to − from.' },
      fromInterval: { type: 'array', items: UNIT, minItems: 2, maxItems: 2 },
      toInterval: { type: 'array', items: UNIT, minItems: 2, maxItems: 2 },
      pValue: { type: 'number' },
      threshold: { type: 'number', description: 'The level the p-value had to pass (0.05 Bonferroni-corrected).' },
      direction: { type: 'string', enum: ['up', 'down'] },
      baselineAnswers: { type: 'integer' },
      latestAnswers: { type: 'integer' },
      baselineRuns: { type: 'integer' },
    },
  },
  WatchPoint: {
    type: 'object',
    required: ['runId', 'at', 'mode', 'providers', 'overall', 'shareOfVoice', 'topCompetitors', 'costUsd'],
    properties: {
      runId: { type: 'string', format: 'uuid' },
      at: { type: 'string', format: 'date-time' },
      mode: { type: 'string', enum: ['demo', 'live'] },
      providers: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            model: { type: ['string', 'null'] },
            mentionRate: RATE,
            low: UNIT,
            high: UNIT,
            answers: { type: 'integer' },
            named: { type: 'integer' },
            failed: { type: 'integer' },
            rank: { type: ['number', 'null'] },
          },
        },
      },
      overall: { type: 'object', properties: { mentionRate: RATE, low: UNIT, high: UNIT, answers: { type: 'integer' }, named: { type: 'integer' } } },
      shareOfVoice: RATE,
      topCompetitors: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, mentions: { type: 'integer' } } } },
      costUsd: { type: 'number' },
    },
  },
  WatchRun: {
    type: 'object',
    required: ['id', 'watchId', 'trigger', 'status', 'mode', 'createdAt', 'progress', 'changes'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      watchId: { type: 'string', format: 'uuid' },
      trigger: { type: 'string', enum: ['schedule', 'manual'] },
      status: { type: 'string', enum: ['running', 'complete', 'skipped', 'failed'] },
      mode: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      completedAt: { type: ['string', 'null'], format: 'date-time' },
      reason: { type: ['string', 'null'], description: 'Why a run was skipped (the budget) or failed.' },
      progress: { type: 'object', properties: { completed: { type: 'integer' }, total: { type: 'integer' } } },
      point: { oneOf: [ref('WatchPoint'), { type: 'null' }] },
      changes: { type: 'array', items: ref('WatchChange') },
      joined: { type: 'boolean', description: 'POST only: true when a running run was joined (no credit spent).' },
    },
  },
  WatchHistory: {
    type: 'object',
    required: ['watch', 'points', 'changes', 'skipped'],
    properties: {
      watch: ref('Watch'),
      points: { type: 'array', items: ref('WatchPoint') },
      changes: { type: 'array', items: ref('WatchChange') },
      skipped: { type: 'array', items: { type: 'object', properties: { runId: { type: 'string' }, at: { type: 'string' }, status: { type: 'string' }, reason: { type: ['string', 'null'] } } } },
      running: { oneOf: [{ type: 'object', properties: { runId: { type: 'string' }, at: { type: 'string' } } }, { type: 'null' }] },
    },
  },
};

/** The watch paths. */
export const WATCH_PATHS: Record<string, JsonObject> = {
  '/api/watches': {
    post: {
      operationId: 'createWatch',
      tags: ['tracking'],
      summary: 'Track a brand over time',
      description: 'Re-asks the buyer questions to every configured provider on a schedule. The first run is due at once. The answer carries `webhookSecret` this once.',
      security: SIGNED_IN,
      requestBody: { required: true, content: { 'application/json': { schema: ref('WatchRequest') } } },
      responses: {
        '201': json('The watch, with its webhook secret.', ref('Watch')),
        '400': error('`invalid_body`, `missing_required`, `invalid_schedule`, `too_many_questions`, `invalid_questions`, `invalid_samples`, `invalid_providers`, `invalid_website`, `invalid_webhook` or `no_questions`; the message names the field.'),
        '401': common401,
        '403': common403,
        '409': error('`too_many_watches`.'),
      },
    },
    get: {
      operationId: 'listWatches',
      tags: ['tracking'],
      summary: 'Your watches',
      security: SIGNED_IN,
      responses: { '200': json('The watches.', { type: 'object', properties: { watches: { type: 'array', items: ref('Watch') } } }), '401': common401 },
    },
  },
  '/api/watches/{watchId}': {
    parameters: [watchIdParameter],
    get: {
      operationId: 'getWatch',
      tags: ['tracking'],
      summary: 'One watch, with its alert log',
      security: SIGNED_IN,
      responses: { '200': json('The watch and every alert try (`alertLog`).', ref('Watch')), '401': common401, '404': common404 },
    },
    patch: {
      operationId: 'updateWatch',
      tags: ['tracking'],
      summary: 'Change the schedule, the alerts or pause',
      security: SIGNED_IN,
      requestBody: { required: true, content: { 'application/json': { schema: ref('WatchPatch') } } },
      responses: { '200': json('The watch.', ref('Watch')), '400': error('`invalid_body`, `invalid_schedule` or `invalid_webhook`.'), '401': common401, '403': common403, '404': common404 },
    },
    delete: {
      operationId: 'deleteWatch',
      tags: ['tracking'],
      summary: 'Delete a watch and its history',
      security: SIGNED_IN,
      responses: { '204': { description: 'Deleted.' }, '401': common401, '403': common403, '404': common404 },
    },
  },
  '/api/watches/{watchId}/runs': {
    parameters: [watchIdParameter],
    post: {
      operationId: 'runWatchNow',
      tags: ['tracking'],
      summary: 'Run a watch now (one credit)',
      description: 'Spends one credit, like a map re-run. While a run of the watch is running it is joined for nothing. With the monthly budget used up the run is recorded as skipped (200) and no credit is spent.',
      security: SIGNED_IN,
      responses: {
        '202': json('The run, measuring; poll getWatchRun.', ref('WatchRun')),
        '200': json('The run, recorded as skipped with the reason.', ref('WatchRun')),
        '401': common401,
        '402': error('`no_credits`.'),
        '403': common403,
        '404': common404,
      },
    },
  },
  '/api/watches/{watchId}/runs/{runId}': {
    parameters: [watchIdParameter, { name: 'runId', in: 'path', required: true, description: 'The `id` of a run.', schema: { type: 'string', format: 'uuid' } }],
    get: {
      operationId: 'getWatchRun',
      tags: ['tracking'],
      summary: 'A run and its progress',
      security: SIGNED_IN,
      responses: { '200': json('The run.', ref('WatchRun')), '401': common401, '404': error('`watch_not_found` or `run_not_found`.') },
    },
  },
  '/api/watches/{watchId}/history': {
    parameters: [watchIdParameter],
    get: {
      operationId: 'getWatchHistory',
      tags: ['tracking'],
      summary: 'The trend: one point per run, and the changes the data say are real',
      security: SIGNED_IN,
      parameters: [
        { name: 'format', in: 'query', required: false, description: '`json` (default) or `csv` (one row per run and provider).', schema: { type: 'string', enum: ['json', 'csv'] } },
        { name: 'from', in: 'query', required: false, description: 'ISO date or date-time; runs from then on.', schema: { type: 'string' } },
        { name: 'to', in: 'query', required: false, description: 'ISO date (the whole day) or date-time; runs until then.', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          description: 'The history.',
          content: { 'application/json': { schema: ref('WatchHistory') }, 'text/csv': { schema: { type: 'string' } } },
        },
        '400': error('`invalid_range` or `invalid_format`.'),
        '401': common401,
        '404': common404,
      },
    },
  },
};
