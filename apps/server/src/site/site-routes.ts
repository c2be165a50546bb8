import express, { Router, type NextFunction, type Request, type Response } from 'express';
import {
  checkBrandRecognition,
  escapeHtml,
  getBuyerQuestionMap,
  hashAuditToken,
  mintAuditToken,
  revokeAuditTokenById,
  parseAuditRequest,
  parseCheckRequest,
  resolveAuditToken,
  startBuyerQuestionMap,
  startVisibilityAudit,
  type AuditProgress,
  type BuyerQuestionMapDependencies,
} from '@visibility/core';
import { readSession } from '../auth/session.js';
import { requireSameOrigin } from '../auth/same-origin.js';
import { ApiError } from '../http/api-error.js';
import type { RouteContext } from '../route-context.js';
import { callerKey } from '../rest/caller.js';
import { toApiError } from '../rest/core-errors.js';
import { consumeRateLimit } from '../rest/rate-limit.js';
import { badgeEmbedHtml, findOwnedAudit } from '../rest/audit-token-routes.js';
import { renderBadgeLandingHtml, renderBadgeLandingMarkdown } from './badge-landing.js';
import { renderCheckResultHtml } from './check-result.js';
import { auditFormHtml, checkFormHtml, type FormValues } from './forms.js';
import { renderLayout } from './layout.js';
import { negotiate } from './negotiation.js';
import { markdownLines, md, trustedMarkdown } from './markdown-text.js';
import { noticeHtml, sendMarkdown, sendPage } from './pages.js';
import { isReportKey, reportKey, reportUrl } from './report-access.js';
import { renderReportHtml, renderReportMarkdown, toReportView } from './report/index.js';
import { notAcceptable } from './responses.js';
import type { StaticSite } from './static-site.js';
import { HTML_SECURITY_HEADERS } from './static-site.js';

const FORM_BODY_LIMIT = '16kb';

function formValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') values[name] = value.slice(0, 400);
  }
  return values;
}

/** Empty optional form fields mean "not given", as a JSON client would leave them out. */
function withoutEmpty(values: FormValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''));
}

function errorText(error: unknown): { status: number; text: string; headers: Record<string, string> } | undefined {
  const converted = toApiError(error);
  if (converted instanceof ApiError) return { status: converted.status, text: `${converted.message} ${converted.hint}`, headers: converted.headers };
  return undefined;
}

/**
 * The site's dynamic pages: the home forms' results (/check, /audit streaming its progress), the
 * private report link, and the public badge landing and share pages. They call the same core
 * functions, limits and budget as the REST operations, never the REST endpoints.
 */
export function siteRoutes(context: RouteContext, site: StaticSite, mapDependencies: BuyerQuestionMapDependencies): Router {
  const { config, runtime } = context;
  const { layout } = site;
  const { store } = runtime;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 20 });

  const homeWithError = (response: Response, which: 'check' | 'audit', values: FormValues, status: number, text: string) => {
    const isCheck = which === 'check';
    sendPage(
      response,
      layout,
      {
        title: isCheck ? 'Quick check' : 'Full audit',
        path: `/${which}`,
        noindex: true,
        notice: noticeHtml('error', text),
        body: `<section class="card"><h2 id="${which}-heading">${isCheck ? 'Try again' : 'Try again'}</h2>\n${isCheck ? checkFormHtml(values) : auditFormHtml(values)}</section>\n`,
      },
      status,
    );
  };

  // A form post that arrives from another site is refused before any spending (CSRF).
  const sameOrigin = requireSameOrigin(config.baseUrl, 'This form was posted from another site.', `Use the forms at ${config.baseUrl}/.`);

  router.get(['/check', '/audit'], (_request, response) => response.redirect(303, '/'));

  router.post('/check', sameOrigin, form, async (request, response) => {
    const values = formValues(request.body);
    let checkRequest;
    try {
      checkRequest = parseCheckRequest(withoutEmpty(values));
    } catch (error) {
      const failure = errorText(error);
      homeWithError(response, 'check', values, failure?.status ?? 400, failure?.text ?? 'The brand is missing.');
      return;
    }
    const caller = callerKey(request);
    try {
      const result = await checkBrandRecognition(runtime, checkRequest, {
        beforeSpend: () => consumeRateLimit(runtime.rateLimiter, 'checkBrandRecognition', caller, response),
      });
      sendPage(response, layout, {
        title: `Quick check: ${result.brand}`,
        path: '/check',
        noindex: true,
        body: `${renderCheckResultHtml(result)}<section class="card"><h2 id="check-heading">Check another brand</h2>\n${checkFormHtml()}</section>\n`,
      });
    } catch (error) {
      const failure = errorText(error);
      if (failure === undefined) throw error;
      for (const [name, value] of Object.entries(failure.headers)) response.setHeader(name, value);
      homeWithError(response, 'check', values, failure.status, failure.text);
    }
  });

  router.post('/audit', sameOrigin, form, async (request, response) => {
    const values = formValues(request.body);
    let auditRequest;
    try {
      auditRequest = parseAuditRequest(withoutEmpty(values), { hostMap: config.crawlHostMap });
      await consumeRateLimit(runtime.rateLimiter, 'startVisibilityAudit', callerKey(request), response);
    } catch (error) {
      const failure = errorText(error);
      if (failure === undefined) throw error;
      for (const [name, value] of Object.entries(failure.headers)) response.setHeader(name, value);
      homeWithError(response, 'audit', values, failure.status, failure.text);
      return;
    }

    // The page streams: the layout and a progress list first, one line per finished step, then the report.
    const marker = '<!--stream-->';
    const [head = '', tail = ''] = renderLayout(layout, {
      title: `Auditing ${auditRequest.brand}`,
      path: '/audit',
      noindex: true,
      body: marker,
    }).split(marker);
    response.status(200);
    for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) response.setHeader(name, value);
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Accel-Buffering', 'no');
    response.setHeader('X-Robots-Tag', 'noindex, nofollow');
    response.write(`${head}<p class="lede" id="audit-running">Reading ${escapeHtml(auditRequest.website)} and asking every provider the buyer questions. This takes 15 to 60 seconds; the report opens by itself when it is ready.</p>
<details class="progress-log"><summary>Progress (each step appears here as it finishes)</summary>
<ol class="progress" aria-label="Progress" data-state="running">
`);
    const onProgress = (event: AuditProgress | { stage: string; completed: number; total: number; label: string }) => {
      if (response.writableEnded) return;
      response.write(`<li>${escapeHtml(event.label)} <span class="meta">(${event.stage} ${event.completed}/${event.total})</span></li>\n`);
    };
    try {
      const audit = await startVisibilityAudit(
        {
          ...runtime,
          mode: config.providerMode,
          crawlHostMap: config.crawlHostMap,
          baseUrl: config.baseUrl,
          reportUrl: (auditId: string) => reportUrl(config.baseUrl, runtime.sessionSecret, auditId),
          auditRepository: store.auditRepository,
          logger: request.log,
        },
        auditRequest,
        {
        onProgress,
      });
      // Post/redirect/get: the result lives at the report's own GET address, so a reload never re-posts the
      // audit. The streamed page cannot answer 303 any more, so it sends the browser there with a refresh.
      const reportPath = `/report/${audit.id}?key=${reportKey(runtime.sessionSecret, audit.id)}`;
      response.end(`</ol></details>
<meta http-equiv="refresh" content="0; url=${escapeHtml(reportPath)}">
<p class="notice" role="status" id="audit-done">Done. <a href="${escapeHtml(reportPath)}">Open the report</a>; keep its private link to come back to it${
        auditRequest.email ? '. The result was also mailed to the address you gave; sign in with it to manage badges and share links.' : '.'
      }</p>
${tail}`);
    } catch (error) {
      const failure = errorText(error);
      if (failure === undefined) request.log.error('site audit failed', { error });
      response.end(`</ol></details>
<p class="notice error" role="alert" id="audit-failed">The audit could not be completed. ${escapeHtml(failure?.text ?? 'Something went wrong on our side; try again in a minute.')}</p>
<p><a href="/">Back to the forms</a></p>
${tail}`);
    }
  });

  /** The owner (signed in) or whoever holds the private key may read a report. */
  const reportAccess = async (request: Request<{ auditId: string }>) => {
    const audit = await store.auditRepository.getAudit(request.params.auditId);
    if (audit === undefined) return undefined;
    if (isReportKey(runtime.sessionSecret, audit.id, request.query.key)) return audit;
    const session = readSession(request as Request, runtime.sessionSecret);
    if (session !== undefined && audit.email !== undefined && session.email.toLowerCase() === audit.email.toLowerCase()) return audit;
    return undefined;
  };

  const reportView = async (request: Request, auditId: string, createdAt: string, response: Record<string, unknown>) => {
    const mapState = await getBuyerQuestionMap({ ...mapDependencies, logger: request.log }, auditId);
    return toReportView({
      auditId,
      createdAt,
      response,
      map: 'map' in mapState ? mapState.map : undefined,
      mapStatus: 'map' in mapState ? undefined : { status: mapState.status, completed: mapState.progress?.completed, total: mapState.progress?.total },
    });
  };

  const notFoundReport = (response: Response) =>
    sendPage(
      response,
      layout,
      {
        title: 'Report not found',
        path: '/report',
        noindex: true,
        body: '<p>There is no report at this link, or the link is not yours. Reports open with the private link shown when the audit finished, from your account, or from a share link their owner created.</p>\n<p><a href="/account">Your account</a> · <a href="/">Run an audit</a></p>\n',
      },
      404,
    );

  router.get('/report/:auditId', async (request, response) => {
    const audit = await reportAccess(request);
    if (audit === undefined) {
      notFoundReport(response);
      return;
    }
    const view = await reportView(request, audit.id, audit.createdAt, audit.response);
    const keyQuery = typeof request.query.key === 'string' ? `?key=${encodeURIComponent(request.query.key)}` : '';
    const running = view.mapState.kind === 'running';
    // The signed-in owner may measure the map again (one credit); nobody else sees that button.
    const session = readSession(request as Request, runtime.sessionSecret);
    const owner = session !== undefined && audit.email !== undefined && session.email.toLowerCase() === audit.email.toLowerCase() ? session.email : undefined;
    response.setHeader('Referrer-Policy', 'same-origin');
    if (running) response.setHeader('Refresh', '5');
    sendPage(response, layout, {
      title: `Report: ${audit.brand}`,
      path: `/report/${audit.id}`,
      noindex: true,
      body: `${running ? '<p class="notice" role="status">The buyer questions are being asked; this page refreshes every 5 seconds.</p>\n' : ''}${renderReportHtml(view, {
        mapAction: { formAction: `/report/${audit.id}/map${keyQuery}` },
        mapHistory: await store.mapStore.completedGenerations(audit.id),
        ...(owner === undefined ? {} : { rerunAction: { formAction: `/report/${audit.id}/map${keyQuery}`, credits: (await store.accountRepository.getAccount(owner))?.credits ?? 0 } }),
      })}${
        keyQuery === ''
          ? ''
          : '\n<p class="meta" id="report-private-link">This page’s address is a private link to this report: bookmark it to come back. The owner (the email given with the audit) can sign in to mint share links and badges.</p>'
      }`,
    });
  });

  router.post('/report/:auditId/map', sameOrigin, form, async (request: Request<{ auditId: string }>, response) => {
    const audit = await reportAccess(request);
    if (audit === undefined) {
      notFoundReport(response);
      return;
    }
    const keyQuery = typeof request.query.key === 'string' ? `?key=${encodeURIComponent(request.query.key)}` : '';
    try {
      // The page does not hold the browser for the whole map: it starts it and shows the running state.
      await startBuyerQuestionMap(
        { ...mapDependencies, logger: request.log },
        // The first measurement is free; "measure again" (rerun=true) needs the signed-in owner and a credit (core checks both).
        {
          auditId: audit.id,
          rerun: formValues(request.body).rerun === 'true',
          signedInEmail: readSession(request as unknown as Request, runtime.sessionSecret)?.email,
        },
        { beforeSpend: () => consumeRateLimit(runtime.rateLimiter, 'startBuyerQuestionMap', callerKey(request), response), waitMs: 2_000 },
      );
      response.redirect(303, `/report/${audit.id}${keyQuery}`);
    } catch (error) {
      const failure = errorText(error);
      if (failure === undefined) throw error;
      for (const [name, value] of Object.entries(failure.headers)) response.setHeader(name, value);
      const view = await reportView(request, audit.id, audit.createdAt, audit.response);
      sendPage(
        response,
        layout,
        { title: `Report: ${audit.brand}`, path: `/report/${audit.id}`, noindex: true, notice: noticeHtml('error', failure.text), body: renderReportHtml(view, {}) },
        failure.status,
      );
    }
  });

  /** `/share/{token}` and `/badge/{token}`: the token may end in .md for the markdown view. */
  const tokenAndRepresentation = (request: Request<{ token: string }>, response: Response) => {
    const raw = String(request.params.token);
    const suffixed = raw.endsWith('.md');
    const representation = negotiate(request.headers.accept, suffixed ? ['markdown'] : ['html', 'markdown']);
    if (representation === undefined) {
      notAcceptable(response, config.baseUrl, suffixed ? ['text/markdown'] : ['text/html', 'text/markdown']);
      return undefined;
    }
    response.setHeader('Vary', 'Accept');
    response.setHeader('Referrer-Policy', 'same-origin');
    response.setHeader('X-Robots-Tag', 'noindex, nofollow');
    return { token: suffixed ? raw.slice(0, -3) : raw, representation };
  };

  const tokenNotFound = (response: Response, representation: 'html' | 'markdown', what: string, path: string) => {
    const text = `This ${what} link does not exist or was revoked by the report's owner.`;
    if (representation === 'markdown') {
      const body = markdownLines([md`# Not found`, '', md`${text}`, '', md`Index: ${trustedMarkdown(config.baseUrl)}/llms.txt`, '']);
      sendMarkdown(response, `${config.baseUrl}${path}`, body, 404);
    } else sendPage(response, layout, { title: 'Link not found', path, noindex: true, body: `<p>${escapeHtml(text)}</p>\n<p><a href="/">Measure your own brand</a></p>\n` }, 404);
  };

  router.get('/share/:token', async (request, response) => {
    const chosen = tokenAndRepresentation(request, response);
    if (chosen === undefined) return;
    const record = await resolveAuditToken(store.tokenRepository, chosen.token, 'share');
    const audit = record === undefined ? undefined : await store.auditRepository.getAudit(record.auditId);
    const path = `/share/${chosen.token}`;
    if (audit === undefined) {
      tokenNotFound(response, chosen.representation, 'share', path);
      return;
    }
    const view = await reportView(request, audit.id, audit.createdAt, audit.response);
    response.setHeader('Cache-Control', 'private, max-age=60');
    if (chosen.representation === 'markdown') {
      sendMarkdown(response, `${config.baseUrl}${path}`, renderReportMarkdown(view), 200, { 'Cache-Control': 'private, max-age=60' });
      return;
    }
    sendPage(
      response,
      layout,
      {
        title: `AI visibility report: ${audit.brand}`,
        description: `How AI assistants answer buyer questions about ${audit.category}, and whether they name ${audit.brand}.`,
        path,
        markdownPath: `${path}.md`,
        noindex: true,
        lede: 'A read-only report shared by its owner.',
        body: renderReportHtml(view, {}),
      },
      200,
      'private, max-age=60',
    );
  });

  router.get('/badge/:token', async (request, response) => {
    const chosen = tokenAndRepresentation(request, response);
    if (chosen === undefined) return;
    const record = await resolveAuditToken(store.tokenRepository, chosen.token, 'badge');
    const audit = record === undefined ? undefined : await store.auditRepository.getAudit(record.auditId);
    const path = `/badge/${chosen.token}`;
    if (audit === undefined) {
      tokenNotFound(response, chosen.representation, 'badge', path);
      return;
    }
    const lastRunAt = (await store.badgeSubjects.findBadgeSubject(hashAuditToken(chosen.token)))?.lastRunAt;
    const subject = { token: chosen.token, audit, lastRunAt, baseUrl: config.baseUrl };
    if (chosen.representation === 'markdown') {
      sendMarkdown(response, `${config.baseUrl}${path}`, renderBadgeLandingMarkdown(subject), 200, { 'Cache-Control': 'public, max-age=3600' });
      return;
    }
    const page = renderBadgeLandingHtml(subject);
    sendPage(response, layout, { title: page.title, description: page.description, path, markdownPath: `${path}.md`, noindex: true, body: page.body }, 200, 'public, max-age=3600');
  });

  // The owner's account page revokes one of its badges or share links by its listed id, then shows the page again.
  router.post('/account/audits/:auditId/tokens/:kind/:id/revoke', form, async (request: Request<{ auditId: string; kind: string; id: string }>, response) => {
    const { audit } = await findOwnedAudit(request as unknown as Request, context);
    const kind = request.params.kind;
    const revoked = (kind === 'badge' || kind === 'share') && (await revokeAuditTokenById(store.tokenRepository, { auditId: audit.id, kind, id: request.params.id }));
    if (!revoked) throw new ApiError(404, 'token_not_found', 'This audit has no such badge or share link.', 'Reload your account page and use its Revoke buttons.');
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(303, '/account');
  });

  // The owner's account page mints a badge or a share link; the raw token is shown on this page only.
  router.post('/account/audits/:auditId/:kind', form, async (request: Request<{ auditId: string; kind: string }>, response, next) => {
    const kind = request.params.kind;
    if (kind !== 'badge' && kind !== 'share') {
      next();
      return;
    }
    const { audit, email } = await findOwnedAudit(request as unknown as Request, context);
    const token = await mintAuditToken(store.tokenRepository, { auditId: audit.id, kind, createdBy: email });
    if (kind === 'badge') {
      const embed = badgeEmbedHtml(audit.brand, `${config.baseUrl}/api/badge/${token}`, `${config.baseUrl}/badge/${token}`);
      sendPage(response, layout, {
        title: `Badge for ${audit.brand}`,
        path: '/account',
        noindex: true,
        body: `<p>Paste this on your site. It links to <a href="/badge/${escapeHtml(token)}">the badge's page</a>, which says what was measured and when. This is the only time the code is shown.</p>
<p>${badgeEmbedHtml(audit.brand, `/api/badge/${token}`, `/badge/${token}`)}</p>
<div class="field"><label for="embed">Embed code</label>
<textarea id="embed" class="embed-snippet" readonly rows="4">${escapeHtml(embed)}</textarea></div>
<p><a href="/account">Back to your account</a></p>
`,
      });
      return;
    }
    const url = `${config.baseUrl}/share/${token}`;
    sendPage(response, layout, {
      title: `Share link for ${audit.brand}`,
      path: '/account',
      noindex: true,
      body: `<p>Anyone with this link can read the report, without an account. It is shown only this once; revoke it from <a href="/account">your account</a> when you no longer want it open.</p>
<p><a href="/share/${escapeHtml(token)}">${escapeHtml(url)}</a></p>
<p><a href="/account">Back to your account</a></p>
`,
    });
  });

  // Form posts that fail validation or limits answered above; anything else here is a page-shaped error.
  router.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    const isSitePath = /^\/(check|audit|report|share|badge|account\/audits)(\/|$)/.test(request.path);
    const status = error instanceof ApiError ? error.status : (error as { status?: unknown }).status;
    if (!isSitePath || response.headersSent || typeof status !== 'number' || status < 400 || status > 499) {
      next(error);
      return;
    }
    const text = error instanceof ApiError ? `${error.message} ${error.hint}` : 'The form could not be read (too long, or not a form). Shorten the fields and try again.';
    if (error instanceof ApiError) for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    sendPage(response, layout, { title: 'Something is not right', path: request.path, noindex: true, notice: noticeHtml('error', text), body: '<p><a href="/">Back to the home page</a></p>\n' }, status === 413 ? 400 : status);
  });

  return router;
}
