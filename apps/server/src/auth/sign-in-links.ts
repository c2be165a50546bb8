import { createHash, randomBytes } from 'node:crypto';
import type { SignInStore } from '@visibility/core';

/** How long a mailed link works: long enough to switch to the mail app, short enough that an old mail is useless. */
export const SIGN_IN_LINK_TTL_SECONDS = 15 * 60;

/** Expired links are kept this long before they are deleted (so "expired" is still told apart from "unknown" for a day). */
const EXPIRED_LINK_RETENTION_MS = 24 * 3600 * 1000;

/** 32 random bytes in base64url, unpadded. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The SHA-256 of a link token, hex: what the store keeps, so a leaked database cannot sign anyone in. */
export function hashSignInToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Creates and stores a one-time link token for an address; returns the raw token (mailed, never stored) and its expiry. */
export async function createSignInLink(repository: SignInStore, email: string, now: Date = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_SECONDS * 1000);
  await repository.deleteExpiredLinks(new Date(now.getTime() - EXPIRED_LINK_RETENTION_MS));
  await repository.insertLink({ tokenHash: hashSignInToken(token), email, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/** Uses a link token once: the email it was mailed to, or undefined when it is malformed, unknown, expired or already used. */
export async function consumeSignInLink(repository: SignInStore, token: unknown, now: Date = new Date()): Promise<string | undefined> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return undefined;
  return repository.consumeLink(hashSignInToken(token), now);
}
