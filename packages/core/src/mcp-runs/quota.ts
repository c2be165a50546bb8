// The MCP server's quota: one free measurement per domain every 30 days (spec, Limits, "MCP server").

/** How long a run holds its domain's free measurement. */
export const QUOTA_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The quota key of a validated website URL: its host, lower-cased, without a trailing dot or a leading
 * `www.`, so "https://WWW.Acme.com/pricing" and "acme.com" share one quota. Subdomains other than
 * `www` are their own key (without the public-suffix list a registrable domain cannot be told exactly).
 */
export function quotaDomain(website: string): string {
  const host = new URL(website).hostname.toLowerCase().replace(/\.$/u, '');
  return host.startsWith('www.') ? host.slice('www.'.length) : host;
}

/** The oldest creation time a run may have and still hold its domain's quota at `now`. */
export function quotaWindowStart(now: Date, days: number = QUOTA_DAYS): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** When a run created at `createdAt` stops holding its domain's quota. */
export function quotaRenewsAt(createdAt: string, days: number = QUOTA_DAYS): string {
  return new Date(new Date(createdAt).getTime() + days * DAY_MS).toISOString();
}
