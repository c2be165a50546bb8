import { Router, type Request, type Response } from 'express';
import {
  crawlSite,
  createWatch,
  deleteWatch,
  findOwnedWatch,
  getWatchHistory,
  getWatchRun,
  historyCsv,
  listWatches,
  runWatchNow,
  updateWatch,
  watchView,
  type CreateWatchOptions,
  type WatchTracker,
} from '@visibility/core';
import { isSameOriginRequest } from '../auth/same-origin.js';
import { readSession } from '../auth/session.js';
import { ApiError } from '../http/api-error.js';
import type { RouteContext } from '../route-context.js';
import { toApiError } from './core-errors.js';
import { jsonBody } from './json-body.js';

/**
 * Watches (docs/tracking.md): the signed-in owner's brands re-measured on a schedule. Every route needs the
 * session cookie (401 without), state changes must come from this site (403 `cross_origin`), and another
 * account's watch is a 404 like no watch at all. The tracker (scheduler and runner) is the composition
 * root's: this module only calls it.
 */
export function watchRoutes(context: RouteContext, tracker: WatchTracker, options: CreateWatchOptions = {}): Router {
  const router = Router();
  const { config, runtime } = context;
  const crawl = options.crawl ?? crawlSite;

  function owner(request: Request, changes: boolean): string {
    if (changes && !isSameOriginRequest(request, config.baseUrl)) {
      throw new ApiError(403, 'cross_origin', 'This request came from another site.', 'Manage watches from this site or from a client without a browser Origin.');
    }
    const session = readSession(request, runtime.sessionSecret);
    if (session === undefined) {
      throw new ApiError(401, 'unauthorized', 'Sign in to manage watches.', 'Sign in on the site (/account), then send the sb-access-token cookie.');
    }
    return session.email;
  }

  const privateAnswer = (response: Response): void => {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Vary', 'Cookie');
  };

  // Every handler turns core refusals into the spec's ApiError in one place.
  const handle =
    (work: (request: Request, response: Response) => Promise<void>) =>
    async (request: Request, response: Response): Promise<void> => {
      try {
        await work(request, response);
      } catch (error) {
        throw toApiError(error);
      }
    };

  router.post(
    '/api/watches',
    jsonBody('invalid_body'),
    handle(async (request, response) => {
      const email = owner(request, true);
      const created = await createWatch(tracker, email, request.body, { crawl });
      privateAnswer(response);
      // The secret is shown this once; it signs every webhook POST of the watch.
      response.status(201).location(`/api/watches/${created.watch.id}`).json({ ...created.watch, webhookSecret: created.webhookSecret });
    }),
  );

  router.get(
    '/api/watches',
    handle(async (request, response) => {
      const email = owner(request, false);
      privateAnswer(response);
      response.json({ watches: await listWatches(tracker, email) });
    }),
  );

  router.get(
    '/api/watches/:watchId',
    handle(async (request, response) => {
      const email = owner(request, false);
      const record = await findOwnedWatch(tracker, email, String(request.params.watchId));
      const alertLog = await tracker.dependencies.watchRepository.listAlertTries(record.id);
      privateAnswer(response);
      response.json({ ...watchView(record), alertLog });
    }),
  );

  router.patch(
    '/api/watches/:watchId',
    jsonBody('invalid_body'),
    handle(async (request, response) => {
      const email = owner(request, true);
      privateAnswer(response);
      response.json(await updateWatch(tracker, email, String(request.params.watchId), request.body));
    }),
  );

  router.delete(
    '/api/watches/:watchId',
    handle(async (request, response) => {
      const email = owner(request, true);
      await deleteWatch(tracker, email, String(request.params.watchId));
      privateAnswer(response);
      response.status(204).end();
    }),
  );

  router.post(
    '/api/watches/:watchId/runs',
    jsonBody('invalid_body', { optional: true }),
    handle(async (request, response) => {
      const email = owner(request, true);
      const { run, joined } = await runWatchNow(tracker, email, String(request.params.watchId));
      privateAnswer(response);
      response
        .status(run.status === 'running' ? 202 : 200)
        .location(`/api/watches/${run.watchId}/runs/${run.id}`)
        .json({ ...run, joined });
    }),
  );

  router.get(
    '/api/watches/:watchId/runs/:runId',
    handle(async (request, response) => {
      const email = owner(request, false);
      privateAnswer(response);
      response.json(await getWatchRun(tracker, email, String(request.params.watchId), String(request.params.runId)));
    }),
  );

  router.get(
    '/api/watches/:watchId/history',
    handle(async (request, response) => {
      const email = owner(request, false);
      const format = typeof request.query.format === 'string' ? request.query.format : 'json';
      if (format !== 'json' && format !== 'csv') {
        throw new ApiError(400, 'invalid_format', '`format` must be json or csv.', 'Leave it out for JSON, or send format=csv.');
      }
      const history = await getWatchHistory(tracker, email, String(request.params.watchId), { from: request.query.from, to: request.query.to });
      privateAnswer(response);
      if (format === 'csv') {
        response.setHeader('Content-Disposition', `attachment; filename="watch-${history.watch.id}.csv"`);
        response.type('text/csv; charset=utf-8').send(historyCsv(history));
        return;
      }
      response.json(history);
    }),
  );

  return router;
}
