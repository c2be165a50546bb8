import { describe, expect, it } from 'vitest';
import { compactBrandKey, createBrandMatcher, normalizeBrandKey, positionInList } from './match-brand.js';

const found = (brand: string, text: string, options?: Parameters<typeof createBrandMatcher>[1]): string | null =>
  createBrandMatcher(brand, options).find(text)?.matched ?? null;

describe('createBrandMatcher: spelling variants', () => {
  it('matches spacing, hyphen and case variants of a camel-case brand', () => {
    expect(found('HubSpot', 'We moved to Hub Spot last year.')).toBe('Hub Spot');
    expect(found('HubSpot', 'try hub-spot for free')).toBe('hub-spot');
    expect(found('HubSpot', 'HUBSPOT rocks')).toBe('HUBSPOT');
    expect(found('HubSpot', 'Hubs pot')).toBeNull();
  });

  it('matches domain forms and reports them whole', () => {
    expect(found('HubSpot', 'see www.hubspot.com for details')).toBe('www.hubspot.com');
    expect(found('Acme', 'Acme.io has an API')).toBe('Acme.io');
    expect(found('Acme', 'visit https://acme.com/pricing')).toBe('https://acme.com');
  });

  it('ignores possessives, trademark marks and diacritics', () => {
    expect(found('HubSpot', "hubspot's pricing page")).toBe('hubspot');
    expect(found('Acme', 'Acme’s support team')).toBe('Acme');
    expect(found('Acme', 'Acme™ Cloud is fine')).toBe('Acme');
    expect(found('Nestlé', 'Nestle products')).toBe('Nestle');
    expect(found("L'Oréal", 'L’Oreal Paris mascara')).toBe('L’Oreal');
  });

  it('does not match inside longer words', () => {
    expect(found('Acme', 'Acmes are rare')).toBeNull();
    expect(found('Ring', 'a Bring-your-own plan')).toBeNull();
  });

  it('matches aliases and an explicit domain', () => {
    expect(found('HiBob', 'Bob is popular in Europe.', { aliases: ['Bob'], commonWord: false })).toBe('Bob');
    expect(found('Google Analytics 4', 'Most teams use GA4 today.', { aliases: ['GA4'] })).toBe('GA4');
    expect(found('Basecamp', 'Sign up at 37signals.com', { domain: '37signals.com' })).toBe('37signals.com');
  });

  it('returns every mention in order from findAll', () => {
    const matcher = createBrandMatcher('Stripe');
    expect(matcher.findAll('Stripe is great. I moved from Stripe to stripe.com billing.').map((match) => match.index)).toEqual([
      0, 30, 40,
    ]);
  });
});

describe('createBrandMatcher: brands spelt like everyday words', () => {
  it('flags everyday-word brands and leaves distinctive ones alone', () => {
    expect(createBrandMatcher('Notion').commonWord).toBe(true);
    expect(createBrandMatcher('monday.com').commonWord).toBe(true);
    expect(createBrandMatcher('HubSpot').commonWord).toBe(false);
    expect(createBrandMatcher('Zoom', { commonWord: false }).commonWord).toBe(false);
  });

  it('skips ordinary uses of the word', () => {
    expect(found('Monday', 'See you on Monday morning.')).toBeNull();
    expect(found('Monday', 'Monday and Tuesday are busy.')).toBeNull();
    expect(found('Zoom', 'zoom in on the chart')).toBeNull();
    expect(found('Zoom', 'Zoom in on the chart.')).toBeNull();
    expect(found('Notion', 'a notion of fairness')).toBeNull();
    expect(found('Apple', 'an apple a day')).toBeNull();
    expect(found('Square', 'Square footage matters most.')).toBeNull();
    expect(found('Square', 'a 1,200 square foot home')).toBeNull();
    expect(found('Slack', 'cut me some slack')).toBeNull();
    expect(found('Target', 'Target audience first, then pricing.')).toBeNull();
    expect(found('Calm', 'Stay calm and breathe.')).toBeNull();
    expect(found('Waking Up', 'waking up early helps')).toBeNull();
  });

  it('matches the word where it is used as a name', () => {
    expect(found('Notion', 'I keep notes in Notion.')).toBe('Notion');
    expect(found('Zoom', 'Zoom is the standard.')).toBe('Zoom');
    expect(found('Zoom', 'Start a Zoom call')).toBe('Zoom');
    expect(found('Square', 'Use Square for in-person payments.')).toBe('Square');
    expect(found('Target', 'It is cheaper at Target.')).toBe('Target');
    expect(found('Slack', "Slack's threads are better")).toBe('Slack');
    expect(found('Waking Up', 'Try Waking Up by Sam Harris')).toBe('Waking Up');
  });

  it('matches a weekday brand only in structure, as a domain, before a product word or in a list of names', () => {
    expect(found('Monday', '- **Monday** – a work OS')).toBe('Monday');
    expect(found('Monday', '| Monday | $9/seat |')).toBe('Monday');
    expect(found('monday.com', 'Sign up at monday.com today')).toBe('monday.com');
    expect(found('Monday', 'Your Monday board is ready')).toBe('Monday');
    expect(found('Monday', 'Asana, Monday and ClickUp are popular')).toBe('Monday');
    expect(found('monday.com', 'On Monday, review the roadmap.')).toBeNull();
  });

  it('matches a lowercase everyday word only when the brand itself is written in lowercase and stands in structure', () => {
    expect(found('Calm', '## calm')).toBeNull();
    expect(found('monday.com', '### monday')).toBe('monday');
  });
});

describe('positionInList', () => {
  it('returns the 1-based position of the first item naming the brand', () => {
    const items = ['Sony Bravia 7', 'LG C4 OLED', 'Samsung S90D'];
    expect(positionInList(items, createBrandMatcher('LG'))).toBe(2);
    expect(positionInList(items, createBrandMatcher('Samsung'))).toBe(3);
    expect(positionInList(items, createBrandMatcher('TCL'))).toBeNull();
  });

  it('accepts short forms, domains and spacing variants of the brand', () => {
    expect(positionInList(['Ahrefs', 'Plausible'], createBrandMatcher('Plausible Analytics'))).toBe(2);
    expect(positionInList(['acme.com'], createBrandMatcher('Acme'))).toBe(1);
    expect(positionInList(['Notion', 'Hub Spot'], createBrandMatcher('HubSpot'))).toBe(2);
  });

  it('does not take an everyday first word for a short form', () => {
    expect(positionInList(['Apple Music'], createBrandMatcher('Apple'))).toBe(1);
    expect(positionInList(['Square'], createBrandMatcher('Square Payroll'))).toBeNull();
  });
});

describe('brand keys', () => {
  it('folds case, diacritics, marks, punctuation, possessives and legal suffixes', () => {
    expect(normalizeBrandKey('Acme, Inc.')).toBe('acme');
    expect(normalizeBrandKey('Stripe™')).toBe('stripe');
    expect(normalizeBrandKey('Nestlé S.A.')).toBe('nestle');
    expect(normalizeBrandKey("Arthur Bryant's")).toBe('arthur bryant');
    expect(normalizeBrandKey('The Odin Project')).toBe('odin project');
    expect(normalizeBrandKey('Sony BRAVIA 7')).toBe('sony bravia 7');
  });

  it('compacts spacing and hyphen variants into one dedup key', () => {
    expect(compactBrandKey('Hub-Spot LLC')).toBe('hubspot');
    expect(compactBrandKey('HubSpot')).toBe('hubspot');
    expect(compactBrandKey('Visible+')).toBe('visible');
  });
});
