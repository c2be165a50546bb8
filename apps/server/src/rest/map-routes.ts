import { Router, type Request, type Response } from 'express';
import {
  auditNotFound,
  createAsyncBuyerQuestionMapReader,
  createBuyerQuestionMapReader,
  createBuyerQuestionMapRunner,
  FanoutMapRequestSchema,
  resumeBuyerQuestionMaps,
  startBuyerQuestionMap,
  stopBuyerQuestionMaps,
  type BuyerQuestionMapDependencies,
  type BuyerQuestionMapRead,
  type BuyerQuestionMapReader,
  type RateLimiter,
} from '@visibility/core';
import { readSession } from '../auth/session.js';
import { apiErrorAnswer, ifNoneMatchHits, notModified, writeAnswer, type ApiErrorDescription, type HttpAnswer } from '../http/answer.js';
import { ApiError, docsUrlFor } from '../http/api-error.js';
import { literalUndecodableSegments } from '../http/literal-path-segments.js';
import type { RouteContext } from '../route-context.js';
import { callerKey } from './caller.js';
import { statusOf, toApiError } from './core-errors.js';
import { jsonBody } from './json-body.js';
import { consumeRateLimit, rateLimitHeaders, rateLimitRefusal } from './rate-limit.js';

const MAP_PATH = '/api/audit/:auditId/fanout-map';

/**
 * Every map read may be kept by a client or a shared cache, but must be revalidated before reuse
 * (If-None-Match, answered 304 while the bytes are the same): a re-measurement can change it at any time.
 */
export const MAP_READ_CACHE_CONTROL = 'public, no-cache';

/** A 304 of a map read repeats the rate-limit figures of the read it counted. */
const RATE_LIMIT_HEADER_NAMES: ReadonlySet<string> = new Set(['x-ratelimit-remaining', 'x-ratelimit-reset']);

/** The map's routes plus the service-wide job control: resume on start, stop on close. */
export interface MapRoutes {
  router: Router;
  /** Resumes the jobs whose lease is free (a stopped or killed process left them); returns how many. */
  resume(): Promise<number>;
  /** Stops the jobs (calls in flight get graceMs to finish and be stored); call before the store closes. */
  stop(graceMs?: number): Promise<void>;
  /** The one runner and repositories the site's map button uses too, so one audit never has two runners. */
  dependencies: BuyerQuestionMapDependencies;
  /**
   * getBuyerQuestionMap for a caller, as the GET route answers it (http/cheap-reads.ts answers with it
   * too); undefined in PostgreSQL mode, where the read is awaited in the route.
   */
  readAnswer: ((auditId: string, caller: string, ifNoneMatch: string | string[] | undefined) => HttpAnswer) | undefined;
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
    mapStore: runtime.store.mapStore,
    mapRepository: runtime.store.mapRepository,
    runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: config.providerConcurrency, jobs: runtime.jobs }),
    logger,
  };
  // Map jobs other processes left (a dead owner, a lease given back) are taken over with these dependencies.
  dependencies.runner.register(dependencies);
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

  const docsUrl = docsUrlFor(config.baseUrl);
  // SQLite: one synchronous read, also answered before Express (http/cheap-reads.ts) with the same
  // readAnswer. PostgreSQL: no synchronous read exists, so every map read awaits the ports here.
  const reader = dependencies.mapRepository === undefined ? undefined : createBuyerQuestionMapReader(dependencies);
  const readAnswer =
    reader === undefined
      ? undefined
      : (auditId: string, caller: string, ifNoneMatch: string | string[] | undefined) =>
          mapReadAnswer({ reader, rateLimiter: runtime.rateLimiter, docsUrl }, auditId, caller, ifNoneMatch);
  const asyncReader = createAsyncBuyerQuestionMapReader(dependencies);
  router.get(MAP_PATH, async (request: Request<{ auditId: string }>, response: Response) => {
    const caller = callerKey(request);
    const ifNoneMatch = request.headers['if-none-match'];
    if (readAnswer !== undefined) {
      writeAnswer(response, readAnswer(request.params.auditId, caller, ifNoneMatch));
      return;
    }
    const lookup = await asyncReader.lookup(request.params.auditId);
    if (lookup === undefined) {
      writeAnswer(response, apiErrorAnswer(AUDIT_NOT_FOUND, docsUrl));
      return;
    }
    // PostgreSQL mode: the counter is in the database (the runtime keeps none in memory here), shared by every instance.
    const decision = await runtime.rateLimiter.consume('getBuyerQuestionMap', caller);
    if (!decision.allowed) {
      writeAnswer(response, apiErrorAnswer(rateLimitRefusal(decision, 'getBuyerQuestionMap'), docsUrl));
      return;
    }
    writeAnswer(response, mapReadOf(await asyncReader.read(lookup), decision, ifNoneMatch));
  });

  return {
    router,
    resume: () => resumeBuyerQuestionMaps(dependencies),
    stop: (graceMs) => stopBuyerQuestionMaps(dependencies, graceMs),
    dependencies,
    readAnswer,
  };
}

/**
 * getBuyerQuestionMap as an answer: 404 for an unknown audit (no rate-limit slot spent), 429 past the
 * caller's limit, else the map read (200) with its rate-limit figures and entity tag, or 304 when
 * If-None-Match names that tag (a 304 still counts as a read: the limit is on requests, not bytes).
 * No exception on any of these paths (a refused caller hammering the read costs little); a store
 * failure is thrown, for the 500 of the error handler.
 */
export function mapReadAnswer(
  options: { reader: BuyerQuestionMapReader; rateLimiter: RateLimiter; docsUrl: string },
  auditId: string,
  caller: string,
  ifNoneMatch: string | string[] | undefined,
): HttpAnswer {
  const lookup = options.reader.lookup(auditId);
  if (lookup === undefined) return apiErrorAnswer(AUDIT_NOT_FOUND, options.docsUrl);
  // In memory (no store write per read), so the read path answers without awaiting.
  const decision = options.rateLimiter.consumeLocal('getBuyerQuestionMap', caller);
  if (!decision.allowed) return apiErrorAnswer(rateLimitRefusal(decision, 'getBuyerQuestionMap'), options.docsUrl);
  return mapReadOf(options.reader.read(lookup), decision, ifNoneMatch);
}

/** The 200 (or 304) of a map read with its rate-limit figures. */
function mapReadOf(read: BuyerQuestionMapRead, decision: Parameters<typeof rateLimitHeaders>[0], ifNoneMatch: string | string[] | undefined): HttpAnswer {
  const answer: HttpAnswer = {
    status: 200,
    headers: [
      ...rateLimitHeaders(decision),
      ['Cache-Control', MAP_READ_CACHE_CONTROL],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['ETag', read.etag],
    ],
    body: read.body,
  };
  return ifNoneMatchHits(ifNoneMatch, read.etag) ? notModified(answer, RATE_LIMIT_HEADER_NAMES) : answer;
}

/** getBuyerQuestionMap's 404, as core's MapError says it. */
const AUDIT_NOT_FOUND: ApiErrorDescription = (() => {
  const error = auditNotFound();
  return { status: statusOf(error), code: error.code, message: error.message, hint: error.hint, headers: {} };
})();

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
