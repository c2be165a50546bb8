import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

/** The cookie the spec names for the signed-in session. */
export const SESSION_COOKIE = 'sb-access-token';
/** How long a session lasts after signing in. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface Session {
  email: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** A signed, expiring session token: base64url(JSON payload) + "." + HMAC-SHA256 of it. */
export function createSessionToken(email: string, secret: string, now: Date = new Date(), ttlSeconds = SESSION_TTL_SECONDS): string {
  const payload = Buffer.from(JSON.stringify({ email: email.toLowerCase(), exp: Math.floor(now.getTime() / 1000) + ttlSeconds, v: 1 })).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/** Checks a session token's signature (in constant time) and expiry; undefined when it is not valid. */
export function verifySessionToken(token: string, secret: string, now: Date = new Date()): Session | undefined {
  const parts = token.split('.');
  if (parts.length !== 2) return undefined;
  const [payload = '', signature = ''] = parts;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown; exp?: unknown; v?: unknown };
    if (data.v !== 1 || typeof data.email !== 'string' || typeof data.exp !== 'number') return undefined;
    if (data.exp * 1000 <= now.getTime()) return undefined;
    return { email: data.email, expiresAt: data.exp };
  } catch {
    return undefined;
  }
}

/** Reads one cookie from the Cookie header (no parser dependency for a single value). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The signed-in session of a request, if its cookie is valid. */
export function readSession(request: Request, secret: string, now: Date = new Date()): Session | undefined {
  const token = readCookie(request, SESSION_COOKIE);
  return token === undefined ? undefined : verifySessionToken(token, secret, now);
}
