import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The private key of a report link the site gives whoever ran an audit in the browser
 * (`/report/{auditId}?key=…`). It is an HMAC of the audit id under the session secret, so it needs
 * no storage, cannot be guessed, and stops working when the operator rotates SESSION_SECRET.
 */
export function reportKey(secret: string, auditId: string): string {
  return createHmac('sha256', secret).update(`report:${auditId}`).digest('base64url').slice(0, 32);
}

export function isReportKey(secret: string, auditId: string, key: unknown): boolean {
  if (typeof key !== 'string' || key.length !== 32) return false;
  const expected = Buffer.from(reportKey(secret, auditId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The report's own page with its private key: what the site, REST, mail and MCP all link to. */
export function reportUrl(baseUrl: string, secret: string, auditId: string): string {
  return `${baseUrl}/report/${auditId}?key=${reportKey(secret, auditId)}`;
}
