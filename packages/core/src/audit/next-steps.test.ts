import { describe, expect, it } from 'vitest';
import { buildNextSteps, type NextStepsInput } from './next-steps.js';
import { crawlReport, failedCrawlReport, pageSummary } from './test-support/crawl-report.js';
import type { ProviderFinding, RankedCompetitor } from './types.js';

function finding(mentionRate: number, successfulSamples = 18): ProviderFinding {
  return {
    provider: 'openai',
    model: 'demo-gpt',
    score: Math.round(mentionRate * 100),
    scoreInterval: [0, 100],
    summary: '',
    mentionRate,
    mentionRateInterval: [0, 1],
    samples: successfulSamples,
    successfulSamples,
    failedSamples: 0,
    averagePosition: null,
    shareOfVoice: null,
    topCompetitors: [],
    questions: [],
  };
}

function competitor(name: string, namedInstead: number, rank: number): RankedCompetitor {
  return { rank, name, namedInstead, mentions: namedInstead + 1, watched: false, byProvider: {} };
}

const healthy: NextStepsInput = { crawl: crawlReport(), findings: [finding(0.9)], competitors: [], brand: 'Acme', category: 'CRM software' };

function ids(input: NextStepsInput): string[] {
  return buildNextSteps(input).map((step) => step.id);
}

describe('buildNextSteps', () => {
  it('has nothing to fix for a healthy site that assistants already name', () => {
    expect(buildNextSteps(healthy)).toEqual([]);
  });

  it('asks to unblock assistant-search crawlers blocked in robots.txt, naming them and the training difference', () => {
    const crawl = crawlReport({ robotsTxt: 'User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /' });
    const steps = buildNextSteps({ ...healthy, crawl });
    const step = steps.find((candidate) => candidate.id === 'unblock-assistant-search-crawlers');
    expect(step).toMatchObject({ priority: 'high' });
    expect(step?.title).toContain('OAI-SearchBot');
    expect(step?.title).toContain('PerplexityBot');
    expect(step?.title).not.toContain('GPTBot');
    expect(step?.why).toMatch(/Disallow: \//u);
    expect(step?.why).toMatch(/GPTBot/u);
    expect(step?.how).toContain('User-agent: OAI-SearchBot\nAllow: /');
    // Training crawlers are allowed here, so there is no training step.
    expect(steps.some((candidate) => candidate.id === 'review-training-crawlers')).toBe(false);
  });

  it('only notes, at low priority, training crawlers blocked while assistant search is allowed', () => {
    const crawl = crawlReport({ robotsTxt: 'User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /' });
    const steps = buildNextSteps({ ...healthy, crawl });
    expect(steps.map((step) => step.id)).toEqual(['review-training-crawlers']);
    expect(steps[0]).toMatchObject({ priority: 'low' });
    expect(steps[0]?.title).toContain('GPTBot, Google-Extended');
  });

  it('reports an unreachable robots.txt once, without listing every crawler again', () => {
    const crawl = crawlReport({
      robots: { url: 'https://acme.example/robots.txt', status: 'unreachable', httpStatus: 503, sitemaps: [] },
      aiCrawlers: crawlReport({ robotsTxt: 'User-agent: *\nDisallow: /' }).aiCrawlers,
    });
    expect(ids({ ...healthy, crawl })).toEqual(['fix-robots-txt-errors']);
  });

  it('flags a CDN or WAF that answers AI user agents with 403', () => {
    const crawl = crawlReport({
      botAccess: { userAgent: 'GPTBot', browserStatus: 200, botStatus: 403, blocked: true, reason: 'the site answers GPTBot with 403 but a browser with 200' },
    });
    const step = buildNextSteps({ ...healthy, crawl })[0];
    expect(step).toMatchObject({ id: 'fix-bot-blocking-cdn', priority: 'high' });
    expect(step?.title).toContain('GPTBot gets 403');
    expect(step?.why).toContain('answers GPTBot with 403');
  });

  it('asks for Organization and the vertical’s JSON-LD when missing', () => {
    const saas = crawlReport({ schemaTypes: [] });
    expect(ids({ ...healthy, crawl: saas })).toEqual(['add-organization-schema', 'add-software-application-schema']);
    const shop = crawlReport({ schemaTypes: ['Organization'], vertical: 'ecommerce' });
    expect(ids({ ...healthy, crawl: shop })).toEqual(['add-product-schema']);
    const local = crawlReport({ schemaTypes: [], vertical: 'local_business' });
    expect(ids({ ...healthy, crawl: local })).toEqual(['add-organization-schema', 'add-local-business-schema']);
    // A LocalBusiness subtype is organisation markup too.
    expect(ids({ ...healthy, crawl: crawlReport({ schemaTypes: ['Dentist'], vertical: 'local_business' }) })).toEqual([]);
  });

  it('asks for llms.txt and a sitemap when missing, llms.txt at low priority', () => {
    const crawl = crawlReport({
      llmsTxt: { url: 'https://acme.example/llms.txt', present: false, httpStatus: 404, bytes: 0 },
      sitemap: { url: 'https://acme.example/sitemap.xml', source: 'default', present: false, httpStatus: 404, kind: undefined, urlCount: undefined },
    });
    const steps = buildNextSteps({ ...healthy, crawl });
    expect(steps.map((step) => [step.id, step.priority])).toEqual([
      ['add-sitemap', 'medium'],
      ['add-llms-txt', 'low'],
    ]);
    expect(steps[1]?.how).toContain('# Acme');
  });

  it('asks to put the category wording on the homepage when title, description and h1 lack it', () => {
    const crawl = crawlReport({ homepage: pageSummary({ title: 'Acme — grow faster', description: 'Close more deals with less effort.', h1: ['Welcome to Acme'] }) });
    const step = buildNextSteps({ ...healthy, crawl })[0];
    expect(step).toMatchObject({ id: 'category-wording-on-homepage', priority: 'high' });
    expect(step?.title).toBe('Say "CRM software" on the homepage');
    // Plural or singular, the words are there: no step.
    const shoes = crawlReport({ homepage: pageSummary({ title: 'Fleet — the running shoe for every runner', description: undefined, h1: [] }) });
    expect(ids({ ...healthy, brand: 'Fleet', category: 'running shoes', crawl: shoes })).toEqual([]);
  });

  it('suggests comparison pages against the competitors that win most, without duplicates', () => {
    const competitors = [competitor('Salesforce', 7, 1), competitor('Pipedrive', 4, 2), competitor('Zoho CRM', 2, 3), competitor('Copper', 1, 4), competitor('Close', 0, 5)];
    const steps = buildNextSteps({ ...healthy, findings: [finding(0.4)], competitors });
    expect(steps.map((step) => step.id)).toEqual(['comparison-pages']);
    expect(steps[0]).toMatchObject({ priority: 'high', title: 'Publish comparison pages: Acme vs Salesforce, Acme vs Pipedrive, Acme vs Zoho CRM' });
    expect(steps[0]?.why).toContain('Salesforce (7 answers)');
    // Named often enough: still useful, lower priority.
    expect(buildNextSteps({ ...healthy, findings: [finding(0.8)], competitors })[0]).toMatchObject({ id: 'comparison-pages', priority: 'medium' });
  });

  it('advises a local business on reviews and profiles against its rivals, not "X vs Y" pages', () => {
    const crawl = crawlReport({ vertical: 'local_business', schemaTypes: ['Dentist'], homepage: pageSummary({ title: 'Sonrisa — dentist in Madrid', description: undefined, h1: [] }) });
    const competitors = [competitor('Clínica Dental Alameda', 5, 1), competitor('Dental Mirador', 3, 2)];
    const step = buildNextSteps({ ...healthy, brand: 'Sonrisa', category: 'dentist in Madrid', crawl, findings: [finding(0.2)], competitors }).find(
      (candidate) => candidate.id === 'comparison-pages',
    );
    expect(step?.title).toBe('Close the gap with Clínica Dental Alameda and Dental Mirador');
    expect(step?.title).not.toMatch(/ vs /u);
    expect(step?.how).toMatch(/Google Business Profile/u);
  });

  it('treats an audit with a market as a local business even when the site could not be read', () => {
    const competitors = [competitor('Clínica Dental Alameda', 5, 1)];
    const steps = buildNextSteps({ ...healthy, crawl: undefined, brand: 'Sonrisa', category: 'dentist', location: 'Madrid', findings: [finding(0.2)], competitors });
    expect(steps.find((step) => step.id === 'comparison-pages')?.title).toBe('Close the gap with Clínica Dental Alameda');
  });

  it('says the category in its plural where the sentence needs it, in English', () => {
    const step = buildNextSteps({ ...healthy, category: 'issue tracker', language: 'en', findings: [finding(0.1, 9)] }).find(
      (candidate) => candidate.id === 'get-listed-where-assistants-look',
    );
    expect(step?.title).toBe('Get Acme listed where assistants look for issue trackers');
  });

  it('asks to get listed where assistants look when the brand is rarely named, with vertical-specific places', () => {
    const steps = buildNextSteps({ ...healthy, findings: [finding(0.111, 9), finding(0.111, 9)] });
    expect(steps.map((step) => step.id)).toEqual(['get-listed-where-assistants-look']);
    expect(steps[0]?.why).toContain('11% of 18 answers');
    expect(steps[0]?.how).toMatch(/G2, Capterra/u);
  });

  it('says nothing about being named when nothing was measured', () => {
    expect(ids({ ...healthy, findings: [] })).toEqual([]);
  });

  it('notes a failed crawl and skips the checks it could not make', () => {
    const steps = buildNextSteps({ ...healthy, crawl: failedCrawlReport(), findings: [finding(0.1)] });
    expect(steps.map((step) => step.id)).toEqual(['site-unreachable', 'get-listed-where-assistants-look']);
    expect(steps[0]?.why).toContain('the domain does not resolve');
    expect(steps[0]?.how).toMatch(/DNS|resolves/u);
  });

  it('notes a missing crawl at low priority', () => {
    expect(buildNextSteps({ ...healthy, crawl: undefined }).map((step) => [step.id, step.priority])).toEqual([['site-not-checked', 'low']]);
  });

  it('orders everything by priority, each step once', () => {
    const crawl = crawlReport({
      robotsTxt: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: Claude-SearchBot\nDisallow: /',
      schemaTypes: [],
      llmsTxt: { url: undefined, present: false, httpStatus: 404, bytes: 0 },
      botAccess: { userAgent: 'GPTBot', browserStatus: 200, botStatus: 403, blocked: true, reason: 'the site answers GPTBot with 403 but a browser with 200' },
    });
    const steps = buildNextSteps({ ...healthy, crawl, findings: [finding(0.2)], competitors: [competitor('Salesforce', 3, 1)] });
    const order = { high: 0, medium: 1, low: 2 };
    const priorities = steps.map((step) => order[step.priority]);
    expect(priorities).toEqual([...priorities].sort((left, right) => left - right));
    expect(new Set(steps.map((step) => step.id)).size).toBe(steps.length);
    expect(steps.map((step) => step.id)).toEqual([
      'unblock-assistant-search-crawlers',
      'fix-bot-blocking-cdn',
      'comparison-pages',
      'get-listed-where-assistants-look',
      'add-organization-schema',
      'add-software-application-schema',
      'review-training-crawlers',
      'add-llms-txt',
    ]);
    for (const step of steps) {
      expect(step.title.length).toBeGreaterThan(0);
      expect(step.why.length).toBeGreaterThan(0);
      expect(step.how.length).toBeGreaterThan(0);
    }
  });
});
