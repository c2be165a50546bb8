import { SESSION_COOKIE, SESSION_TTL_SECONDS } from './session.js';

/** Whether cookies must be marked Secure: the deployment is served over https (BASE_URL). */
export function isSecureBaseUrl(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).protocol === 'https:';
  } catch {
    return false;
  }
}

function cookieAttributes(maxAgeSeconds: number, secure: boolean): string {
  // Lax: the cookie rides along when a link from a mail or another site is followed, but not on
  // cross-site POSTs, fetches or frames (the first line of the CSRF defence; see docs/accounts.md).
  return `Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that signs a browser in with a session token. */
export function sessionCookie(token: string, secure: boolean, maxAgeSeconds = SESSION_TTL_SECONDS): string {
  return `${SESSION_COOKIE}=${token}; ${cookieAttributes(maxAgeSeconds, secure)}`;
}

/** The Set-Cookie value that removes the session cookie (same name, path and attributes, Max-Age=0). */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(0, secure)}`;
}
