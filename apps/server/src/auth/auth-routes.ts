import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { listAuditTokens } from '@visibility/core';
import { ApiError } from '../http/api-error.js';
import { callerKey } from '../rest/caller.js';
import { jsonBody } from '../rest/json-body.js';
import type { RouteContext } from '../route-context.js';
import { ACCOUNT_PAGE_CSP, renderAccountPage, type AccountAuditSummary, type AccountPageView } from './account-page.js';
import { clearedSessionCookie, isSecureBaseUrl, sessionCookie } from './cookies.js';
import { normalizeEmail } from './email-address.js';
import { requireSameOrigin } from './same-origin.js';
import { consumeSignInLimits, createSignInLimiter } from './sign-in-limits.js';
import { consumeSignInLink, createSignInLink, SIGN_IN_LINK_TTL_SECONDS } from './sign-in-links.js';
import { buildSignInMail, signInLinkUrl } from './sign-in-mail.js';
import { createSessionToken, readSession, type Session } from './session.js';

export interface AuthRouteOptions {
  /** The clock for links, sessions and limits; tests pass a fake one. */
  now?: () => Date;
}

/** A sign-in form holds one short field; anything bigger is not from our page. */
const MAX_FORM_BODY_BYTES = 4 * 1024;

const parseForm = express.urlencoded({ extended: false, limit: MAX_FORM_BODY_BYTES, parameterLimit: 10 });

/** Whether a POST came from an HTML form (the /account page) rather than fetch or a script sending JSON. */
function isFormPost(request: Request): boolean {
  const type = (request.get('content-type') ?? '').toLowerCase();
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

/** Reads the sign-in body: a urlencoded form from the page, else JSON; an unreadable one is 400 `invalid_body`. */
const readSignInBody: RequestHandler = (request, response, next) => {
  if (!isFormPost(request)) {
    jsonBody('invalid_body')(request, response, next);
    return;
  }
  parseForm(request, response, (error?: unknown) => {
    if (error === undefined || error === null) {
      next();
      return;
    }
    next(new ApiError(400, 'invalid_body', 'The form could not be read.', 'Send one field, email, as a form or as JSON.'));
  });
};

function emailField(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).email : undefined;
}

function toAuditSummary(record: {
  id: string;
  createdAt: string;
  brand: string;
  website: string;
  category: string;
  score: number | null;
  measured: boolean;
  mode: string;
  response: Record<string, unknown>;
}): AccountAuditSummary {
  const audit = record.response.audit;
  const risk = typeof audit === 'object' && audit !== null ? (audit as { risk?: unknown }).risk : undefined;
  return {
    id: record.id,
    createdAt: record.createdAt,
    brand: record.brand,
    website: record.website,
    category: record.category,
    // An audit where no provider answered is stored with score 0 but is not a measured 0.
    score: record.measured ? record.score : null,
    risk: typeof risk === 'string' ? risk : null,
    mode: record.mode,
  };
}

/** Writes one of our HTML pages with the headers every one of them carries. */
function sendHtml(response: Response, status: number, html: string): void {
  response.setHeader('Content-Security-Policy', ACCOUNT_PAGE_CSP);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Vary', 'Cookie');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  // The callback URL carries a link token; no page here passes its address on to another site. Same-origin
  // (not no-referrer) so the page's own form posts keep their Origin header for the same-origin check.
  response.setHeader('Referrer-Policy', 'same-origin');
  response.status(status).type('text/html; charset=utf-8').send(html);
}

/** Sign-in by one-time link, sign-out, the account JSON endpoints and the /account page. */
export function authRoutes(context: RouteContext, options: AuthRouteOptions = {}): Router {
  const { config, runtime } = context;
  const { store, mailer, sessionSecret } = runtime;
  const now = options.now ?? (() => new Date());
  const secure = isSecureBaseUrl(config.baseUrl);
  const siteLayout = context.siteLayout ?? { baseUrl: config.baseUrl, demo: config.providerMode === 'demo', stylesheetHref: '/assets/site.css' };
  const limiter = createSignInLimiter(store.rateLimitRepository, options.now);
  const router = Router();

  const sessionOf = (request: Request): Session | undefined => readSession(request, sessionSecret, now());

  const requireSession = (request: Request): Session => {
    const session = sessionOf(request);
    if (session === undefined) {
      throw new ApiError(401, 'unauthorized', 'You are not signed in.', `Sign in at ${config.baseUrl}/account; the session lives in the sb-access-token cookie.`);
    }
    return session;
  };

  const creditsOf = async (session: Session): Promise<number> => (await store.accountRepository.getAccount(session.email))?.credits ?? 0;
  const auditsOf = async (session: Session): Promise<AccountAuditSummary[]> =>
    Promise.all(
      (await store.auditRepository.listAuditsByEmail(session.email)).map(async (record) => ({
        ...toAuditSummary(record),
        tokens: await listAuditTokens(store.tokenRepository, record.id),
      })),
    );

  const accountView = async (session: Session): Promise<Extract<AccountPageView, { signedIn: true }>> => ({
    signedIn: true,
    email: session.email,
    credits: await creditsOf(session),
    audits: await auditsOf(session),
  });

  /** Form posts answer failures as the page with the message; JSON callers get the ApiError. */
  const answerFormError: ErrorRequestHandler = (error: unknown, request, response, next) => {
    if (!(error instanceof ApiError) || !isFormPost(request)) {
      next(error);
      return;
    }
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    const email = normalizeEmail(emailField(request.body));
    sendHtml(response, error.status, renderAccountPage({ signedIn: false, email, notice: { kind: 'error', text: `${error.message} ${error.hint}` } }, siteLayout));
  };

  // CSRF: SameSite=Lax keeps the cookie off cross-site POSTs; this also refuses them outright when the browser names another origin.
  const sameOrigin = requireSameOrigin(config.baseUrl, 'This request came from another site.', `Use the form at ${config.baseUrl}/account.`);

  router.post('/auth/sign-in', sameOrigin, readSignInBody, async (request, response) => {
    const email = normalizeEmail(emailField(request.body));
    if (email === undefined) {
      throw new ApiError(400, 'invalid_email', 'email is not a valid address of at most 120 characters.', 'Send {"email": "name@example.com"}.');
    }
    await consumeSignInLimits(limiter, callerKey(request), email);
    // Every valid address gets a link and the same answer: whether it has audits or an account is never revealed.
    const { token } = await createSignInLink(store.signInRepository, email, now());
    try {
      const sent = await mailer.send(buildSignInMail(email, signInLinkUrl(config.baseUrl, token)));
      request.log.info('sign-in link sent', { delivery: sent.delivery });
    } catch (error) {
      request.log.error('sign-in mail failed', { error });
      throw new ApiError(503, 'mail_unavailable', 'The sign-in mail could not be sent.', 'Try again in a few minutes.', { 'Retry-After': '60' });
    }
    response.setHeader('Cache-Control', 'no-store');
    if (isFormPost(request)) {
      response.redirect(303, '/account?sent=1');
      return;
    }
    response.status(202).json({ ok: true });
  });

  router.get('/auth/callback', async (request, response) => {
    const email = await consumeSignInLink(store.signInRepository, request.query.token, now());
    if (email === undefined) {
      sendHtml(
        response,
        400,
        renderAccountPage({
          signedIn: false,
          notice: {
            kind: 'error',
            text: `This sign-in link is invalid or has expired. Each link works once, for ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes. Ask for a new one below.`,
          },
        }, siteLayout),
      );
      return;
    }
    await store.accountRepository.ensureAccount(email, now());
    response.setHeader('Set-Cookie', sessionCookie(createSessionToken(email, sessionSecret, now()), secure));
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.redirect(303, '/account');
  });

  router.post('/auth/sign-out', sameOrigin, (request, response) => {
    // The token itself stays valid until it expires (it is stateless); the browser forgets it here.
    response.setHeader('Set-Cookie', clearedSessionCookie(secure));
    response.setHeader('Cache-Control', 'no-store');
    if (isFormPost(request)) {
      response.redirect(303, '/account');
      return;
    }
    response.status(204).end();
  });

  router.use('/auth', answerFormError);

  router.get('/api/account', async (request, response) => {
    const session = requireSession(request);
    const credits = await creditsOf(session);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Vary', 'Cookie');
    response.json({ email: session.email, credits });
  });

  router.get('/api/account/audits', async (request, response) => {
    const session = requireSession(request);
    const audits = await auditsOf(session);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Vary', 'Cookie');
    response.json({ audits });
  });

  router.get('/account', async (request, response) => {
    const session = sessionOf(request);
    const watches = session === undefined ? undefined : await store.watchRepository.listWatches(session.email);
    const sent = request.query.sent === '1';
    const notice = sent
      ? ({ kind: 'info', text: `We mailed a sign-in link to the address you gave. It works once, for ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes; check your spam folder if it does not arrive.` } as const)
      : undefined;
    sendHtml(response, 200, renderAccountPage(session === undefined ? { signedIn: false, notice } : { ...(await accountView(session)), watches, notice }, siteLayout));
  });

  return router;
}
