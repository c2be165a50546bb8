import { Router, type Response } from 'express';
import {
  checkBrandRecognition,
  parseCheckRequest,
  parseRepeatRequest,
  runRepeatedBuyerQuestion,
  type BrandExtractor,
  type Budget,
  type Provider,
  type ProviderId,
  type RateLimiter,
} from '@visibility/core';
import { callerKey } from './caller.js';
import { jsonBody } from './json-body.js';
import { toApiError } from './core-errors.js';
import { consumeRateLimit } from './rate-limit.js';

export interface QuickMeasurementDependencies {
  lineup: ReadonlyMap<ProviderId, Provider>;
  budget: Budget;
  rateLimiter: RateLimiter;
  /** EXTRACTION's extractor; the rules when absent. */
  brandExtractor?: BrandExtractor | undefined;
}

/** Stops provider calls (and their spend) when the client goes away before the answer is ready. */
function abortOnDisconnect(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}

/**
 * POST /api/tools/repeat and POST /api/check. Order matters: a bad body, a provider this deployment
 * cannot serve, or a used-up budget answers before a rate-limit slot is spent ("bad input loses
 * nothing"); the slot is taken right before the first provider call.
 */
export function quickMeasurementRoutes(dependencies: QuickMeasurementDependencies): Router {
  const router = Router();

  router.post('/api/tools/repeat', jsonBody('bad_body'), async (request, response) => {
    const caller = callerKey(request);
    try {
      const repeatRequest = parseRepeatRequest(request.body);
      const result = await runRepeatedBuyerQuestion(dependencies, repeatRequest, {
        signal: abortOnDisconnect(response),
        beforeSpend: () => consumeRateLimit(dependencies.rateLimiter, 'runRepeatedBuyerQuestion', caller, response),
      });
      response.json(result);
    } catch (error) {
      throw toApiError(error);
    }
  });

  router.post('/api/check', jsonBody('missing_brand', { form: true }), async (request, response) => {
    const caller = callerKey(request);
    try {
      const checkRequest = parseCheckRequest(request.body);
      const result = await checkBrandRecognition(dependencies, checkRequest, {
        signal: abortOnDisconnect(response),
        beforeSpend: () => consumeRateLimit(dependencies.rateLimiter, 'checkBrandRecognition', caller, response),
      });
      response.json(result);
    } catch (error) {
      throw toApiError(error);
    }
  });

  return router;
}
