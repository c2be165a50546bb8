import { createHash, randomBytes } from 'node:crypto';
import type { TokenStore } from '../store/ports.js';
import type { AuditTokenKind, AuditTokenRecord } from '../store/token-repository.js';

/** Prefixes that make a leaked token recognisable (for secret scanners and people) and say what it opens. */
export const AUDIT_TOKEN_PREFIXES: Readonly<Record<AuditTokenKind, string>> = { badge: 'vb_', share: 'vs_' };

const TOKEN_BYTES = 32;
// 32 bytes are 43 base64url characters without padding.
const TOKEN_SHAPES: Readonly<Record<AuditTokenKind, RegExp>> = {
  badge: /^vb_[A-Za-z0-9_-]{43}$/,
  share: /^vs_[A-Za-z0-9_-]{43}$/,
};

export interface MintAuditTokenInput {
  auditId: string;
  kind: AuditTokenKind;
  /** The signed-in owner who minted it. */
  createdBy: string;
}

/** Whether a string is the kind value the table accepts. */
export function isAuditTokenKind(value: string): value is AuditTokenKind {
  return value === 'badge' || value === 'share';
}

/** Whether a string has the shape of a raw token of this kind (checked before touching the store). */
export function isWellFormedAuditToken(rawToken: string, kind: AuditTokenKind): boolean {
  return TOKEN_SHAPES[kind].test(rawToken);
}

/** The stored form of a raw token: hex SHA-256. 256 random bits need no salt or slow hash. */
export function hashAuditToken(rawToken: string): string {
  return createHash('sha256').update(rawToken, 'utf8').digest('hex');
}

/** Mints a token for an audit and stores only its hash; returns the raw token, shown once. */
export async function mintAuditToken(repository: TokenStore, input: MintAuditTokenInput, now: Date = new Date()): Promise<string> {
  const rawToken = `${AUDIT_TOKEN_PREFIXES[input.kind]}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
  await repository.insertToken({
    tokenHash: hashAuditToken(rawToken),
    kind: input.kind,
    auditId: input.auditId,
    createdBy: input.createdBy.toLowerCase(),
    createdAt: now.toISOString(),
  });
  return rawToken;
}

/**
 * The active token record for a raw token of this kind; undefined when malformed, unknown or revoked.
 * The lookup is by hash, so timing reveals nothing about stored tokens.
 */
export async function resolveAuditToken(repository: TokenStore, rawToken: string, kind: AuditTokenKind): Promise<AuditTokenRecord | undefined> {
  if (!isWellFormedAuditToken(rawToken, kind)) return undefined;
  return repository.findActiveToken(hashAuditToken(rawToken), kind);
}

/** Revokes a token of this audit and kind; true when it exists (also when it was already revoked). */
export async function revokeAuditToken(
  repository: TokenStore,
  input: { auditId: string; kind: AuditTokenKind; rawToken: string },
  now: Date = new Date(),
): Promise<boolean> {
  if (!isWellFormedAuditToken(input.rawToken, input.kind)) return false;
  return repository.revokeToken(hashAuditToken(input.rawToken), input.kind, input.auditId, now.toISOString());
}

/**
 * A token as its owner lists it: never the raw token (only its hash is stored), but a short id (the first
 * 16 hex characters of the hash) that names it for revocation, its kind and its dates.
 */
export interface AuditTokenSummary {
  id: string;
  kind: AuditTokenKind;
  createdAt: string;
  /** When it was revoked; null while it works. */
  revokedAt: string | null;
}

const TOKEN_ID = /^[0-9a-f]{16}$/u;

/** Every badge token and share link of an audit, oldest first. */
export async function listAuditTokens(repository: TokenStore, auditId: string): Promise<AuditTokenSummary[]> {
  return (await repository.listTokens(auditId)).map((token) => ({
    id: token.tokenHash.slice(0, 16),
    kind: token.kind,
    createdAt: token.createdAt,
    revokedAt: token.revokedAt ?? null,
  }));
}

/** Revokes a token of this audit and kind by its listed id; true when it exists (also when already revoked). */
export async function revokeAuditTokenById(
  repository: TokenStore,
  input: { auditId: string; kind: AuditTokenKind; id: string },
  now: Date = new Date(),
): Promise<boolean> {
  if (!TOKEN_ID.test(input.id)) return false;
  // One UPDATE in the store (no list read first), so it is exact whichever instance answers.
  return repository.revokeTokenById(input.id, input.kind, input.auditId, now.toISOString());
}
