import { describe, expect, it } from 'vitest';
import { quotaDomain, quotaRenewsAt, quotaWindowStart } from './quota.js';

describe('quotaDomain', () => {
  it.each([
    ['https://WWW.Acme.com/pricing?plan=pro', 'acme.com'],
    ['https://acme.com./', 'acme.com'],
    ['http://acme.test:8080/', 'acme.test'],
    ['https://app.acme.com/', 'app.acme.com'],
    ['https://www2.acme.com/', 'www2.acme.com'],
    ['https://bücher.de/', 'xn--bcher-kva.de'],
  ])('keys %s as %s', (website, domain) => {
    expect(quotaDomain(website)).toBe(domain);
  });
});

describe('the 30-day window', () => {
  it('starts 30 days before now and renews 30 days after the run', () => {
    expect(quotaWindowStart(new Date('2026-03-31T10:00:00.000Z')).toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(quotaRenewsAt('2026-03-01T10:00:00.000Z')).toBe('2026-03-31T10:00:00.000Z');
  });
});
