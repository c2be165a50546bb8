import { Router, type Request, type Response } from 'express';
import {
  createBuyerQuestionMapRunner,
  FanoutMapRequestSchema,
  getBuyerQuestionMapJson,
  resumeBuyerQuestionMaps,
  startBuyerQuestionMap,
  stopBuyerQuestionMaps,
  type BuyerQuestionMapDependencies,
} from '@visibility/core';
import { readSession } from '../auth/session.js';
import { ApiError } from '../http/api-error.js';
import { literalUndecodableSegments } from '../http/literal-path-segments.js';
import type { RouteContext } from '../route-context.js';
import { callerKey } from './caller.js';
import { toApiError } from './core-errors.js';
import { jsonBody } from './json-body.js';
import { consumeRateLimit } from './rate-limit.js';

const MAP_PATH = '/api/audit/:auditId/fanout-map';

/** The map's routes plus the service-wide job control: resume on start, stop on close. */
export interface MapRoutes {
  router: Router;
  /** Resumes the jobs a stopped or killed process left running; returns how many. Call once after listening. */
  resume(): number;
  /** Stops the jobs (calls in flight get graceMs to finish and be stored); call before the store closes. */
  stop(graceMs?: number): Promise<void>;
  /** The one runner and repositories the site's map button uses too, so one audit never has two runners. */
  dependencies: BuyerQuestionMapDependencies;
}

/**
 * POST and GET /api/audit/{auditId}/fanout-map (startBuyerQuestionMap, getBuyerQuestionMap). Bad input
 * (an unreadable body, an unknown audit) and refusals (401, 402, 409) cost no rate-limit slot; the slot
 * is taken right before the answer, the job or the credit. The POST holds the connection up to 60 s.
 */
export function mapRoutes(context: RouteContext): MapRoutes {
  const { config, runtime, logger } = context;
  const dependencies: BuyerQuestionMapDependencies = {
    lineup: runtime.lineup,
    brandExtractor: runtime.brandExtractor,
    mode: config.providerMode,
    auditRepository: runtime.store.auditRepository,
    accountRepository: runtime.store.accountRepository,
    mapRepository: runtime.store.mapRepository,
    runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: config.providerConcurrency }),
    logger,
  };
  const router = Router();
  // An id Express cannot percent-decode ("%", "%E0%A4%A") is an unknown id (404), not a bare 400.
  router.use(literalUndecodableSegments(/^\/api\/audit\/[^/]+\/fanout-map\/?$/i));

  router.post(MAP_PATH, jsonBody('invalid_body', { optional: true }), async (request: Request<{ auditId: string }>, response: Response) => {
    try {
      const body = parseMapRequest(request.body);
      const caller = callerKey(request);
      const session = readSession(request, runtime.sessionSecret);
      // A client that leaves stops the wait, never the job: the map is stored for the next GET.
      const left = new AbortController();
      response.on('close', () => left.abort());
      const result = await startBuyerQuestionMap(
        { ...dependencies, logger: request.log },
        { auditId: request.params.auditId, rerun: body.rerun, signedInEmail: session?.email },
        {
          beforeSpend: () => consumeRateLimit(runtime.rateLimiter, 'startBuyerQuestionMap', caller, response),
          signal: left.signal,
        },
      );
      response.setHeader('Cache-Control', 'no-store');
      response.json(result);
    } catch (error) {
      throw toApiError(error);
    }
  });

  router.get(MAP_PATH, async (request: Request<{ auditId: string }>, response: Response) => {
    try {
      const caller = callerKey(request);
      // The stored map is sent as the text it was stored as: a read never parses and re-serialises it.
      const body = await getBuyerQuestionMapJson({ ...dependencies, logger: request.log }, request.params.auditId, {
        afterLookup: () => consumeRateLimit(runtime.rateLimiter, 'getBuyerQuestionMap', caller, response),
      });
      response.setHeader('Cache-Control', 'no-store');
      response.type('application/json').send(body);
    } catch (error) {
      throw toApiError(error);
    }
  });

  return {
    router,
    resume: () => resumeBuyerQuestionMaps(dependencies),
    stop: (graceMs) => stopBuyerQuestionMaps(dependencies, graceMs),
    dependencies,
  };
}

/** The optional FanoutMapRequest: no body or `{}` is `rerun: false`; anything else unreadable is 400 `invalid_body`. */
function parseMapRequest(body: unknown): { rerun: boolean } {
  if (body === undefined) return { rerun: false };
  const parsed = FanoutMapRequestSchema.safeParse(body);
  if (parsed.success) return { rerun: parsed.data.rerun };
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  throw new ApiError(
    400,
    'invalid_body',
    isObject ? '`rerun` must be true or false.' : 'The body must be a JSON object.',
    'Send no body, or {"rerun": true} to re-measure a stored map as its signed-in owner.',
  );
}
