import { Router, type Request, type Response } from 'express';
import { findOwnedWatch, historyOf, TrackingError, type WatchTracker } from '@visibility/core';
import { readSession } from '../auth/session.js';
import type { RouteContext } from '../route-context.js';
import { md, markdownLines } from './markdown-text.js';
import { negotiate } from './negotiation.js';
import { sendMarkdown, sendPage } from './pages.js';
import { notAcceptable } from './responses.js';
import { renderWatchHtml, renderWatchMarkdown } from './watch-page.js';

/**
 * `/watches/{id}` (and `/watches/{id}.md`, or `Accept: text/markdown`): the signed-in owner's watch page.
 * Anyone else, signed in or not, gets the same "not found" (a watch's existence is private).
 */
export function watchSiteRoutes(context: RouteContext, tracker: WatchTracker): Router {
  const router = Router();
  const { config, runtime } = context;
  const layout = context.siteLayout;

  router.get('/watches/:watchId', async (request: Request<{ watchId: string }>, response: Response) => {
    const raw = String(request.params.watchId);
    const suffixed = raw.endsWith('.md');
    const representation = negotiate(request.headers.accept, suffixed ? ['markdown'] : ['html', 'markdown']);
    if (representation === undefined) {
      notAcceptable(response, config.baseUrl, suffixed ? ['text/markdown'] : ['text/html', 'text/markdown']);
      return;
    }
    const watchId = suffixed ? raw.slice(0, -3) : raw;
    const path = `/watches/${watchId}`;
    response.setHeader('Vary', 'Accept, Cookie');
    const session = readSession(request as Request, runtime.sessionSecret);
    let found: Awaited<ReturnType<typeof findOwnedWatch>> | undefined;
    try {
      if (session !== undefined) found = await findOwnedWatch(tracker, session.email, watchId);
    } catch (error) {
      if (!(error instanceof TrackingError)) throw error;
    }
    if (found === undefined) {
      const text = session === undefined ? 'Sign in to see your watches.' : 'There is no watch at this address in your account.';
      if (representation === 'markdown') {
        sendMarkdown(response, `${config.baseUrl}${path}`, markdownLines([md`# Watch not found`, '', md`${text}`, '']), 404, { 'Cache-Control': 'no-store' });
      } else if (layout !== undefined) {
        sendPage(response, layout, { title: 'Watch not found', path, noindex: true, body: `<p>${text}</p>\n<p><a href="/account">Your account</a></p>\n` }, 404);
      } else response.status(404).end();
      return;
    }
    const history = await historyOf(tracker, found);
    if (representation === 'markdown') {
      sendMarkdown(response, `${config.baseUrl}${path}`, renderWatchMarkdown(history, config.baseUrl), 200, { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });
      return;
    }
    if (history.running !== null) response.setHeader('Refresh', '10');
    const alertLog = await tracker.dependencies.watchRepository.listAlertTries(found.id);
    if (layout === undefined) {
      response.status(500).end();
      return;
    }
    sendPage(response, layout, { title: `Watch: ${found.brand}`, path, markdownPath: `${path}.md`, noindex: true, body: renderWatchHtml(history, alertLog) });
  });

  return router;
}
