import { describe, expect, it } from 'vitest';
import { compareBotAccess, type AccessSample } from './bot-access.js';

const page = (overrides: Partial<AccessSample> = {}): AccessSample => ({ status: 200, title: 'Acme', bytes: 40_000, headers: {}, ...overrides });

describe('compareBotAccess', () => {
  it('is not a finding when the bot gets the same page', () => {
    expect(compareBotAccess(page(), page({ bytes: 39_000 }), 'GPTBot')).toMatchObject({ blocked: false, browserStatus: 200, botStatus: 200, userAgent: 'GPTBot' });
  });

  it('flags a refusal for the bot only', () => {
    expect(compareBotAccess(page(), page({ status: 403 }), 'GPTBot')).toMatchObject({ blocked: true, botStatus: 403 });
    expect(compareBotAccess(page(), page({ status: 503 }), 'GPTBot').blocked).toBe(true);
  });

  it('flags no answer for the bot', () => {
    expect(compareBotAccess(page(), page({ status: null, error: 'socket hang up' }), 'GPTBot')).toMatchObject({ blocked: true, botStatus: null });
  });

  it('flags a challenge page served with 200', () => {
    expect(compareBotAccess(page(), page({ title: 'Just a moment...', bytes: 5_000 }), 'GPTBot').blocked).toBe(true);
    expect(compareBotAccess(page(), page({ headers: { 'cf-mitigated': 'challenge' } }), 'GPTBot').blocked).toBe(true);
  });

  it('flags a much poorer page for the bot', () => {
    expect(compareBotAccess(page(), page({ title: 'Acme (lite)', bytes: 3_000 }), 'GPTBot').blocked).toBe(true);
  });

  it('is not a finding when the browser is refused too, or failed', () => {
    expect(compareBotAccess(page({ status: 403 }), page({ status: 403 }), 'GPTBot').blocked).toBe(false);
    expect(compareBotAccess(page({ status: null }), page(), 'GPTBot').blocked).toBe(false);
    // Both challenged: the site challenges every automated visitor, not AI crawlers in particular.
    expect(compareBotAccess(page({ title: 'Just a moment...' }), page({ title: 'Just a moment...' }), 'GPTBot').blocked).toBe(false);
  });
});
