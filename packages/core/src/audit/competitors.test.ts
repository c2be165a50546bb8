import { describe, expect, it } from 'vitest';
import { parseCompetitors, rankCompetitors, tallyCompetitors, topCompetitorsFor } from './competitors.js';
import { brandMatcherFor } from './sampling.js';
import { answered, failed, providerSamples } from './test-support/samples.js';

describe('parseCompetitors', () => {
  it('splits the comma list, trims, drops blanks, duplicates and the brand itself', () => {
    expect(parseCompetitors(' Salesforce, pipedrive ,, Pipedrive; Zoho CRM, HubSpot CRM, hubspot.com ', 'HubSpot')).toEqual([
      'Salesforce',
      'pipedrive',
      'Zoho CRM',
    ]);
    expect(parseCompetitors(undefined, 'HubSpot')).toEqual([]);
    expect(parseCompetitors('', 'HubSpot')).toEqual([]);
  });
});

describe('tallyCompetitors and rankCompetitors', () => {
  const brand = brandMatcherFor('HubSpot');

  it('ranks by how often each was named when the brand was not, then by mentions', () => {
    const tally = tallyCompetitors(
      [
        providerSamples('openai', [
          answered(['Salesforce', 'Pipedrive'], null),
          answered(['Pipedrive', 'Salesforce'], null),
          answered(['HubSpot', 'Zoho CRM', 'Salesforce'], 1),
          answered(['Zoho CRM'], null),
        ]),
        providerSamples('gemini', [answered(['Pipedrive', 'HubSpot'], 2), answered(['Salesforce'], null), failed('gemini')]),
      ],
      brand,
      [],
    );
    const ranking = rankCompetitors(tally);
    // Salesforce: instead 3 (2 openai + 1 gemini), mentions 4. Pipedrive: instead 2, mentions 3. Zoho CRM: instead 1, mentions 2.
    expect(ranking.map(({ rank, name, namedInstead, mentions, watched }) => ({ rank, name, namedInstead, mentions, watched }))).toEqual([
      { rank: 1, name: 'Salesforce', namedInstead: 3, mentions: 4, watched: false },
      { rank: 2, name: 'Pipedrive', namedInstead: 2, mentions: 3, watched: false },
      { rank: 3, name: 'Zoho CRM', namedInstead: 1, mentions: 2, watched: false },
    ]);
    expect(ranking[0]?.byProvider).toEqual({ openai: { namedInstead: 2, mentions: 3 }, gemini: { namedInstead: 1, mentions: 1 } });
    expect(topCompetitorsFor(tally, 'gemini')).toEqual([
      { name: 'Salesforce', namedInstead: 1, mentions: 1 },
      { name: 'Pipedrive', namedInstead: 0, mentions: 1 },
    ]);
    expect(tally.mentionsFor('openai')).toBe(7);
    expect(tally.mentionsFor('gemini')).toBe(2);
  });

  it('lists watched competitors even when never named, under the watch list spelling, merging product names', () => {
    const tally = tallyCompetitors(
      [providerSamples('openai', [answered(['Zoho CRM', 'Salesforce Sales Cloud'], null), answered(['Salesforce', 'HubSpot CRM'], 2)])],
      brand,
      ['Salesforce', 'Copper', 'Zoho'],
    );
    const ranking = rankCompetitors(tally);
    expect(ranking.map(({ name, namedInstead, mentions, watched }) => [name, namedInstead, mentions, watched])).toEqual([
      ['Salesforce', 1, 2, true],
      ['Zoho', 1, 1, true],
      ['Copper', 0, 0, true],
    ]);
    // "HubSpot CRM" is the brand, never a competitor.
    expect(ranking.some((competitor) => /hubspot/iu.test(competitor.name))).toBe(false);
  });

  it('breaks ties watched first, then by first appearance, deterministically', () => {
    const tally = tallyCompetitors([providerSamples('anthropic', [answered(['Close', 'Copper', 'Insightly'], null)])], brand, ['Insightly']);
    expect(rankCompetitors(tally).map((competitor) => competitor.name)).toEqual(['Insightly', 'Close', 'Copper']);
  });

  it('counts a competitor once per answer', () => {
    const tally = tallyCompetitors([providerSamples('openai', [answered(['Salesforce', 'Salesforce Sales Cloud'], null)])], brand, []);
    expect(rankCompetitors(tally)[0]).toMatchObject({ name: 'Salesforce', namedInstead: 1, mentions: 1 });
  });

  it('keeps every watched competitor but caps the discovered ones at 20 entries in all', () => {
    const names = Array.from({ length: 30 }, (_, index) => `Vendor${String.fromCharCode(65 + (index % 26))}${index}x`);
    const tally = tallyCompetitors([providerSamples('openai', [answered(names, null)])], brand, ['Watched One']);
    const ranking = rankCompetitors(tally);
    expect(ranking).toHaveLength(20);
    expect(ranking.some((competitor) => competitor.name === 'Watched One')).toBe(true);
  });
});

describe('competitors are other brands', () => {
  const withText = (answer: string, brands: string[], named: boolean): ReturnType<typeof answered> => ({
    ...answered(brands, named ? 1 : null),
    answer,
  });

  it('leaves out stores, maps, publishers and technologies that do not compete in the category', () => {
    const tally = tallyCompetitors(
      [providerSamples('openai', [answered(['Amazon', 'Google Maps', 'New York Times', 'Markdown', 'Clínica Dental Alameda'], null)])],
      brandMatcherFor('Clinica Sonrisa'),
      [],
      'dentist in Madrid',
    );
    expect(rankCompetitors(tally).map((competitor) => competitor.name)).toEqual(['Clínica Dental Alameda']);
  });

  it('keeps a store as a competitor where stores compete, and a watched platform always', () => {
    const stores = tallyCompetitors([providerSamples('openai', [answered(['Costco', 'Amazon'], null)])], brandMatcherFor('Walmart'), [], 'supermarkets');
    expect(rankCompetitors(stores).map((competitor) => competitor.name)).toEqual(['Costco', 'Amazon']);
    const watched = tallyCompetitors([providerSamples('openai', [answered(['Amazon'], null)])], brandMatcherFor('Brooks'), ['Amazon'], 'running shoes');
    expect(rankCompetitors(watched)[0]).toMatchObject({ name: 'Amazon', namedInstead: 1 });
  });

  it('counts a product line as its brand: the audited brand’s own shoe is no competitor, nor another brand’s', () => {
    const tally = tallyCompetitors(
      [
        providerSamples('openai', [
          withText(
            '1. **Brooks** — comfortable daily trainers like the Ghost.\n2. **Nike** — the biggest name, with popular running lines like the Pegasus and Vaporfly.\n3. **Hoka** — max cushioning.',
            ['Brooks', 'Ghost', 'Nike', 'Pegasus', 'Vaporfly', 'Hoka'],
            true,
          ),
          withText('Most people start with **Nike** or **Hoka**; Nike is known for the Pegasus.', ['Nike', 'Hoka', 'Pegasus'], false),
        ]),
      ],
      brandMatcherFor('Brooks'),
      [],
      'running shoes',
    );
    expect(rankCompetitors(tally).map((competitor) => competitor.name)).toEqual(['Nike', 'Hoka']);
  });

  it('keeps a rival named after a product link that starts a new clause', () => {
    const tally = tallyCompetitors(
      [providerSamples('openai', [withText('Brooks makes trainers like the Ghost, while Nike leads on racing shoes.', ['Brooks', 'Ghost', 'Nike'], true)])],
      brandMatcherFor('Brooks'),
      [],
      'running shoes',
    );
    expect(rankCompetitors(tally).map((competitor) => competitor.name)).toEqual(['Nike']);
  });
});
