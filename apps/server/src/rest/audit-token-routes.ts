import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import {
  badgeForToken,
  badgeForTokenAsync,
  type TokenBadge,
  hashAuditToken,
  cleanBadgeText,
  escapeHtml,
  isAuditTokenKind,
  mintAuditToken,
  listAuditTokens,
  revokeAuditToken,
  revokeAuditTokenById,
  type AuditRecord,
  type BadgeSubjectReader,
} from '@visibility/core';
import { isSameOriginRequest } from '../auth/same-origin.js';
import { readSession } from '../auth/session.js';
import { ifNoneMatchHits, notModified, writeAnswer, type HttpAnswer } from '../http/answer.js';
import { ApiError } from '../http/api-error.js';
import { literalUndecodableSegments } from '../http/literal-path-segments.js';
import type { RouteContext } from '../route-context.js';

/** A badge is cached for a day (spec); "not found" only briefly, so a fresh token shows up soon. */
export const BADGE_MAX_AGE_SECONDS = 86_400;
export const BADGE_NOT_FOUND_MAX_AGE_SECONDS = 300;
/** The badge is only ever an image: it may not load or run anything, inline presentation only. */
export const BADGE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The audit the signed-in caller owns, or the ApiError that says why not (401, then 404, then 403). */
export async function findOwnedAudit(request: Request, context: RouteContext): Promise<{ audit: AuditRecord; email: string }> {
  const { store, sessionSecret } = context.runtime;
  const baseUrl = context.config.baseUrl;
  // These change state with the owner's cookie: a page on another site must not trigger them.
  if (!isSameOriginRequest(request, baseUrl)) {
    throw new ApiError(403, 'cross_origin', 'This request came from another site.', 'Manage badges and share links from this site.');
  }
  const session = readSession(request, sessionSecret);
  if (session === undefined) {
    throw new ApiError(
      401,
      'unauthorized',
      'Sign in to manage badges and share links of an audit.',
      'Sign in on the site with the email the audit was sent to, then retry with the sb-access-token cookie.',
    );
  }
  const auditId = String(request.params.auditId ?? '');
  const audit = UUID.test(auditId) ? await store.auditRepository.getAudit(auditId.toLowerCase()) : undefined;
  if (audit === undefined) {
    throw new ApiError(404, 'audit_not_found', 'There is no audit with that id.', 'Use the id from the AuditResponse of POST /api/audit.');
  }
  if (audit.email === undefined || audit.email.toLowerCase() !== session.email.toLowerCase()) {
    throw new ApiError(
      403,
      'forbidden',
      'Only the owner of this audit can manage its badges and share links.',
      'Sign in with the email address the audit was sent to.',
    );
  }
  return { audit, email: session.email };
}

/**
 * Badge and share tokens. Private (absent from /openapi.json, owner only, documented in docs/badge.md):
 * POST /api/audit/{auditId}/badge-token, POST /api/audit/{auditId}/share-link, GET
 * /api/audit/{auditId}/tokens and DELETE /api/audit/{auditId}/tokens/{kind}/{token or id}. Public: GET /api/badge/{token} (getVisibilityBadge).
 */
export function auditTokenRoutes(context: RouteContext): AuditTokenRoutes {
  const router = Router();
  // SQLite mode answers the badge from one synchronous read, kept 5 s; PostgreSQL mode awaits its read per request.
  const badgeReader = context.runtime.store.badgeReader;
  const badges = badgeReader === undefined ? undefined : createBadgeAnswers(badgeReader);
  // A token or id Express cannot percent-decode ("%", "%ED%A0%80") is an unknown one: the "not found"
  // SVG badge, or the owner checks then 404, never a bare 400 (or JSON where an image is embedded).
  router.use(literalUndecodableSegments(/^\/api\/(?:badge\/[^/]+|audit\/[^/]+\/(?:badge-token|share-link|tokens\/[^/]+\/[^/]+))\/?$/i));
  const { store } = context.runtime;
  const baseUrl = context.config.baseUrl;

  const ownedAudit = (request: Request) => findOwnedAudit(request, context);

  function sendCreated(response: Response, body: Record<string, string>): void {
    // The raw token is shown exactly once: no cache may keep it.
    response.setHeader('Cache-Control', 'no-store');
    response.status(201).json(body);
  }

  router.post('/api/audit/:auditId/badge-token', async (request, response) => {
    const { audit, email } = await ownedAudit(request);
    const token = await mintAuditToken(store.tokenRepository, { auditId: audit.id, kind: 'badge', createdBy: email });
    const badgeUrl = `${baseUrl}/api/badge/${token}`;
    const landingUrl = `${baseUrl}/badge/${token}`;
    sendCreated(response, { token, badgeUrl, landingUrl, embedHtml: badgeEmbedHtml(audit.brand, badgeUrl, landingUrl) });
  });

  router.post('/api/audit/:auditId/share-link', async (request, response) => {
    const { audit, email } = await ownedAudit(request);
    const token = await mintAuditToken(store.tokenRepository, { auditId: audit.id, kind: 'share', createdBy: email });
    sendCreated(response, { token, url: `${baseUrl}/share/${token}` });
  });

  // The owner's list: never the raw tokens (only hashes are stored), an id per token to revoke it by.
  router.get('/api/audit/:auditId/tokens', async (request, response) => {
    const { audit } = await ownedAudit(request);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Vary', 'Cookie');
    response.json({ auditId: audit.id, tokens: await listAuditTokens(store.tokenRepository, audit.id) });
  });

  router.delete('/api/audit/:auditId/tokens/:kind/:token', async (request, response) => {
    const { audit } = await ownedAudit(request);
    const kind = String(request.params.kind ?? '');
    const given = String(request.params.token ?? '');
    // The raw token (as returned when it was created) or the id from the list.
    const revoked =
      isAuditTokenKind(kind) &&
      ((await revokeAuditToken(store.tokenRepository, { auditId: audit.id, kind, rawToken: given })) ||
        (await revokeAuditTokenById(store.tokenRepository, { auditId: audit.id, kind, id: given })));
    // A revoked badge stops answering at once, not when its kept answer expires.
    if (revoked && kind === 'badge') badges?.forget(given);
    if (!revoked) {
      throw new ApiError(
        404,
        'token_not_found',
        'This audit has no such badge token or share link.',
        'Use the path /api/audit/{auditId}/tokens/{badge|share}/{token}, with the token returned when it was created or its id from GET /api/audit/{auditId}/tokens.',
      );
    }
    response.setHeader('Cache-Control', 'no-store');
    response.status(204).end();
  });

  // On SQLite the service answers a plain GET of this path before Express (http/cheap-reads.ts) with the
  // same badges; on PostgreSQL there is no synchronous read, so every badge comes through here.
  router.get('/api/badge/:token', async (request, response) => {
    const rawToken = String(request.params.token ?? '');
    if (badges !== undefined) {
      writeAnswer(response, badges.answer(rawToken, request.headers['if-none-match']));
      return;
    }
    writeAnswer(response, badgeAnswerOf(await badgeForTokenAsync(context.runtime.store.badgeSubjects, rawToken), request.headers['if-none-match']));
  });

  return { router, badgeAnswer: badges?.answer };
}

/** The token routes, and GET /api/badge/{token}'s answer for the fast path before Express. */
export interface AuditTokenRoutes {
  router: Router;
  /** Undefined in PostgreSQL mode: no synchronous badge read, the badge goes through Express. */
  badgeAnswer: ((rawToken: string, ifNoneMatch: string | string[] | undefined) => HttpAnswer) | undefined;
}

/** How long a found badge's answer is kept in memory, and for how many tokens at most. */
export const BADGE_ANSWER_KEEP_MS = 5_000;
export const BADGE_ANSWERS_KEPT = 1_000;

/** {@link badgeAnswer} with the answers of found badges kept for a few seconds; see createBadgeAnswers. */
export interface BadgeAnswers {
  answer(rawToken: string, ifNoneMatch: string | string[] | undefined): HttpAnswer;
  /** Drops a token's kept answer (on revocation), named by the raw token or by its listed id (hash prefix). */
  forget(rawTokenOrId: string): void;
}

/**
 * The badge is the most requested read (embedded on other sites), and its store read and rendering were
 * a fifth of its CPU under load (docs/benchmarks.md). The answer of a found badge is kept for `keepMs`
 * (5 s), for at most `maxKept` tokens (the oldest kept goes first); unknown tokens are never kept, so
 * made-up tokens cannot fill it. So a badge can show its previous state for up to 5 s after a new map
 * completes, on top of the day a browser or CDN keeps it anyway; a revocation through this process
 * drops the kept answer at once (one revoked elsewhere answers 404 within 5 s).
 */
export function createBadgeAnswers(
  repository: BadgeSubjectReader,
  options: { keepMs?: number; maxKept?: number; now?: () => number } = {},
): BadgeAnswers {
  const keepMs = options.keepMs ?? BADGE_ANSWER_KEEP_MS;
  const maxKept = options.maxKept ?? BADGE_ANSWERS_KEPT;
  const now = options.now ?? Date.now;
  // Insertion order is the order of filling: the first key is the oldest.
  const kept = new Map<string, { answer: HttpAnswer; etag: string; expiresAtMs: number }>();
  return {
    answer(rawToken, ifNoneMatch) {
      const nowMs = now();
      let entry = kept.get(rawToken);
      if (entry === undefined || entry.expiresAtMs <= nowMs) {
        kept.delete(rawToken);
        const fresh = badgeAnswer(repository, rawToken);
        if (fresh.status !== 200) return fresh;
        const etag = fresh.headers.find(([name]) => name === 'ETag')?.[1] ?? '';
        entry = { answer: { ...fresh, body: Buffer.from(fresh.body) }, etag, expiresAtMs: nowMs + keepMs };
        kept.set(rawToken, entry);
        if (kept.size > maxKept) kept.delete(kept.keys().next().value as string);
      }
      return ifNoneMatchHits(ifNoneMatch, entry.etag) ? notModified(entry.answer) : entry.answer;
    },
    forget(rawTokenOrId) {
      kept.delete(rawTokenOrId);
      // Revoked by its id (the account page's list): the kept raw token whose hash starts with it.
      if (/^[0-9a-f]{16}$/u.test(rawTokenOrId)) for (const rawToken of kept.keys()) if (hashAuditToken(rawToken).startsWith(rawTokenOrId)) kept.delete(rawToken);
    },
  };
}

/**
 * What GET /api/badge/{token} answers: the SVG (200, or 404 for an unknown token) with its caching
 * headers and an entity tag of the SVG's bytes, or 304 when If-None-Match names that tag. The tag
 * follows the content (brand, month, re-check state), so a client or CDN revalidating after max-age
 * gets a 304 until the badge would look different.
 */
export function badgeAnswer(repository: BadgeSubjectReader, rawToken: string, ifNoneMatch?: string | string[]): HttpAnswer {
  return badgeAnswerOf(badgeForToken(repository, rawToken), ifNoneMatch);
}

/** badgeAnswer for a badge already looked up (PostgreSQL mode awaits its read). */
export function badgeAnswerOf(badge: TokenBadge, ifNoneMatch?: string | string[]): HttpAnswer {
  let maxAge = BADGE_NOT_FOUND_MAX_AGE_SECONDS;
  if (badge.found) {
    // A cached fresh badge must not outlive the 60-day boundary by up to a day.
    const untilRecheck = badge.recheckDueAt === undefined ? Infinity : Math.floor((badge.recheckDueAt.getTime() - Date.now()) / 1000);
    maxAge = Math.max(60, Math.min(BADGE_MAX_AGE_SECONDS, untilRecheck));
  }
  const etag = `"${createHash('sha256').update(badge.svg).digest('base64url').slice(0, 27)}"`;
  const answer: HttpAnswer = {
    status: badge.found ? 200 : 404,
    headers: [
      ['Content-Type', 'image/svg+xml; charset=utf-8'],
      ['Cache-Control', `public, max-age=${maxAge}`],
      ['ETag', etag],
      ['X-Content-Type-Options', 'nosniff'],
      ['Content-Security-Policy', BADGE_CONTENT_SECURITY_POLICY],
    ],
    body: badge.svg,
  };
  // Only a badge that exists is revalidated to 304; the "not found" SVG keeps its 404 status.
  return badge.found && ifNoneMatchHits(ifNoneMatch, etag) ? notModified(answer) : answer;
}

/** The spec's embed: an anchor to the landing page wrapping the badge image, displayed 250 by 40. */
export function badgeEmbedHtml(brand: string, badgeUrl: string, landingUrl: string): string {
  const alt = escapeHtml(`AI visibility of ${cleanBadgeText(brand)}`);
  return `<a href="${escapeHtml(landingUrl)}"><img src="${escapeHtml(badgeUrl)}" width="250" height="40" alt="${alt}"></a>`;
}
