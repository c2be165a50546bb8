import type { BadgeSubjectRecord, TokenRepository } from '../store/token-repository.js';

/** The badge's one synchronous SQLite read (see TokenRepository.findBadgeSubject). */
export type BadgeSubjectReader = Pick<TokenRepository, 'findBadgeSubject'>;
import { hashAuditToken, isWellFormedAuditToken } from './audit-tokens.js';
import { badgeStateAt, lastRunOf, recheckDueAt, type BadgeState } from './badge-state.js';
import { renderBadgeSvg } from './badge-svg.js';

export interface TokenBadge {
  /** False for a malformed, unknown or revoked token: the SVG is then the neutral "not found" badge. */
  found: boolean;
  state: BadgeState;
  svg: string;
  /** For a fresh badge: the moment it turns into a re-check badge (caches must not outlive it). */
  recheckDueAt: Date | undefined;
}

/** The badge for a raw badge token: one indexed read of the store, never a provider call. */
export function badgeForToken(repository: BadgeSubjectReader, rawToken: string, now: Date = new Date()): TokenBadge {
  return badgeForSubject(isWellFormedAuditToken(rawToken, 'badge') ? repository.findBadgeSubject(hashAuditToken(rawToken)) : undefined, now);
}

/** The badge through an awaited read (PostgreSQL mode's PgTokenStore.findBadgeSubject). */
export async function badgeForTokenAsync(
  repository: { findBadgeSubject(tokenHash: string): Promise<BadgeSubjectRecord | undefined> },
  rawToken: string,
  now: Date = new Date(),
): Promise<TokenBadge> {
  return badgeForSubject(isWellFormedAuditToken(rawToken, 'badge') ? await repository.findBadgeSubject(hashAuditToken(rawToken)) : undefined, now);
}

/** The badge of a looked-up subject (undefined: malformed, unknown or revoked token). */
export function badgeForSubject(subject: BadgeSubjectRecord | undefined, now: Date = new Date()): TokenBadge {
  if (subject === undefined) {
    return { found: false, state: 'unknown', svg: renderBadgeSvg({ state: 'unknown', now }), recheckDueAt: undefined };
  }
  const lastRun = lastRunOf(subject.createdAt, subject.lastRunAt);
  const state = badgeStateAt(lastRun, now);
  return {
    found: true,
    state,
    svg: renderBadgeSvg({ state, brand: subject.brand, measuredAt: lastRun, now, demo: subject.mode === 'demo' }),
    recheckDueAt: state === 'fresh' ? recheckDueAt(lastRun) : undefined,
  };
}
