import { describe, expect, it } from 'vitest';
import { parseAuditRequest } from './audit-request.js';
import { RequestValidationError } from './request-error.js';

function codeOf(body: unknown): string {
  try {
    parseAuditRequest(body);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.code;
    throw error;
  }
  return 'ok';
}

const valid = { brand: 'Acme', website: 'acme.com', category: 'CRM software' };

describe('parseAuditRequest', () => {
  it('normalises a bare domain to https and splits competitors', () => {
    const request = parseAuditRequest({ ...valid, competitors: ' HubSpot, Pipedrive ,hubspot,, ', promptLanguage: 'ES' });
    expect(request.website).toBe('https://acme.com/');
    expect(request.competitorList).toEqual(['HubSpot', 'Pipedrive']);
    expect(request.promptLanguage).toBe('es');
  });

  it('keeps the email lower-cased so it matches the signed-in owner', () => {
    expect(parseAuditRequest({ ...valid, email: 'Owner@Acme.COM' }).email).toBe('owner@acme.com');
  });

  it.each([
    ['not an object', 'x', 'invalid_body'],
    ['an array', [], 'invalid_body'],
    ['a brand of the wrong type', { ...valid, brand: 7 }, 'invalid_body'],
    ['a brand over 80', { ...valid, brand: 'b'.repeat(81) }, 'invalid_body'],
    ['a category over 120', { ...valid, category: 'c'.repeat(121) }, 'invalid_body'],
    ['competitors over 220', { ...valid, competitors: 'c'.repeat(221) }, 'invalid_body'],
    ['a location over 80', { ...valid, location: 'l'.repeat(81) }, 'invalid_body'],
    ['an unknown promptLanguage', { ...valid, promptLanguage: 'fr' }, 'invalid_body'],
    ['no brand', { website: 'acme.com', category: 'x' }, 'missing_required'],
    ['an empty category', { ...valid, category: '   ' }, 'missing_required'],
    ['no website', { brand: 'Acme', category: 'x' }, 'missing_required'],
    ['localhost', { ...valid, website: 'http://localhost:3000' }, 'invalid_website'],
    ['a private address', { ...valid, website: '192.168.1.10' }, 'invalid_website'],
    ['the metadata address', { ...valid, website: 'http://169.254.169.254/latest' }, 'invalid_website'],
    ['a website over 160', { ...valid, website: `${'a'.repeat(160)}.com` }, 'invalid_website'],
    ['a file URL', { ...valid, website: 'file:///etc/passwd' }, 'invalid_website'],
    ['a bad email', { ...valid, email: 'not-an-email' }, 'invalid_email'],
    ['an email over 120', { ...valid, email: `${'e'.repeat(115)}@x.com` }, 'invalid_email'],
  ])('refuses %s', (_name, body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it('lets a host in the crawl host map through', () => {
    const request = parseAuditRequest({ ...valid, website: 'http://acme.test' }, { hostMap: new Map([['acme.test', 'http://127.0.0.1:4100']]) });
    expect(request.website).toBe('http://acme.test/');
  });
});
