/** The website's host without "www." ("acme.io" for "https://www.acme.io/pricing"), or undefined when it is no URL. */
export function websiteDomain(website: string | undefined): string | undefined {
  const trimmed = website?.trim() ?? '';
  if (trimmed === '') return undefined;
  try {
    const url = new URL(/^https?:\/\//iu.test(trimmed) ? trimmed : `https://${trimmed}`);
    const host = url.hostname.toLowerCase().replace(/^www\./u, '');
    // A bare word ("localhost", "acme") is no domain a text would write.
    return host.includes('.') ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The registrable name of a domain: "getacme" for "app.getacme.io" or "getacme.co.uk"; undefined when too short to be telling. */
export function domainName(domain: string | undefined): string | undefined {
  if (domain === undefined) return undefined;
  const labels = domain.split('.').filter((label) => label !== '');
  if (labels.length < 2) return undefined;
  // "co.uk", "com.mx": a short second-level label under a two-letter country code is part of the suffix.
  const last = labels[labels.length - 1] ?? '';
  const secondLast = labels[labels.length - 2] ?? '';
  const name = last.length === 2 && secondLast.length <= 3 && labels.length >= 3 ? labels[labels.length - 3] : secondLast;
  return name !== undefined && name.length >= 3 ? name : undefined;
}
