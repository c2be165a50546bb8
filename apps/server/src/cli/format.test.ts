import { describe, expect, it } from 'vitest';
import type { CheckResponse, RepeatResponse, StoredAudit } from '@visibility/core';
import { describeWait, formatAuditSummary, formatCheckSummary, formatRepeatSummary } from './format.js';
import { createAuditProgress, createProgressDisplay } from './progress.js';

const repeat: RepeatResponse = {
  question: 'best CRM for a small agency',
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  runsRequested: 3,
  runs: [
    { ok: true, brands: ['HubSpot', 'Pipedrive'], answer: '…' },
    { ok: false, brands: [], answer: null, error: 'rate limited by the provider after 3 attempts' },
    { ok: true, brands: ['HubSpot', 'Zoho CRM'], answer: '…' },
  ],
  metrics: {
    okRuns: 2,
    comparable: true,
    pairs: 1,
    sameSetPairs: 0,
    jaccardMean: 1 / 3,
    union: 3,
    inAll: ['HubSpot'],
    once: ['Pipedrive', 'Zoho CRM'],
    perRun: [['HubSpot', 'Pipedrive'], [], ['HubSpot', 'Zoho CRM']],
  },
};

const check: CheckResponse = {
  score: 55,
  verdict: 'barely_visible',
  brand: 'Pipedrive',
  category: 'CRM software',
  knows: true,
  description: 'Pipedrive is a sales CRM built around a visual pipeline.',
  recommendations: ['HubSpot', 'Salesforce', 'Pipedrive'],
  listPosition: 3,
  recommendVerdict: 'yes',
  recommendReason: 'It suits small sales teams.',
  model: 'gpt-4.1-mini-2025-04-14',
};

describe('formatRepeatSummary', () => {
  it('shows the model, each run (failed ones with their reason) and the metrics', () => {
    expect(formatRepeatSummary(repeat, { demo: false })).toBe(`Question: best CRM for a small agency
Provider: gemini
Model: gemini-2.5-flash

Brands named per run:
  1. HubSpot, Pipedrive
  2. FAILED: rate limited by the provider after 3 attempts
  3. HubSpot, Zoho CRM

Runs answered (okRuns): 2 of 3
Jaccard mean: 0.33 over 1 pairs (0 named exactly the same brands)
Named in every run (inAll): HubSpot
Named in only one run (once): Pipedrive, Zoho CRM
Distinct brands: 3
`);
  });

  it('says when there is no Jaccard mean, and leads with the demo line in demo mode', () => {
    const text = formatRepeatSummary({ ...repeat, metrics: { ...repeat.metrics, jaccardMean: null, inAll: [], once: [] } }, { demo: true });
    expect(text).toMatch(/^DEMO: these answers come from the built-in demo simulator, not from a real model\.\n/);
    expect(text).toContain('Jaccard mean: n/a (fewer than two runs answered)');
    expect(text).toContain('Named in every run (inAll): (none)');
  });
});

describe('formatCheckSummary', () => {
  it('shows score, verdict, description, the blind list with the brand marked, the recommendation and the model', () => {
    expect(formatCheckSummary(check, { demo: false, blindListAsked: true })).toBe(`Brand: Pipedrive
Category: CRM software

Score: 55/100
Verdict: barely_visible (barely visible)

Knows the brand: yes
  "Pipedrive is a sales CRM built around a visual pipeline."

Blind list for "CRM software" (the prompt never names the brand): Pipedrive is #3 of 3
  1. HubSpot
  2. Salesforce
  3. Pipedrive   <-- your brand

Would recommend it: yes
  "It suits small sales teams."

Model: gpt-4.1-mini-2025-04-14
`);
  });

  it('says when the brand is not listed, the list was skipped, or the model does not know the brand', () => {
    const unlisted = formatCheckSummary({ ...check, listPosition: null, knows: false, description: '' }, { demo: false, blindListAsked: true });
    expect(unlisted).toContain('Pipedrive is not in the list');
    expect(unlisted).not.toContain('<-- your brand');
    expect(unlisted).toContain('Knows the brand: no\n');
    const skipped = formatCheckSummary({ ...check, category: '', recommendations: [], listPosition: null }, { demo: true, blindListAsked: false });
    expect(skipped).toContain('Category: (none: the score reflects recognition only)');
    expect(skipped).toContain('Blind list: skipped (no category given)');
    expect(skipped).toMatch(/^DEMO: /);
  });
});

const audit: StoredAudit = {
  id: '6f1c2d4e-8a9b-4c3d-9e2f-1a2b3c4d5e6f',
  createdAt: '2026-01-15T10:00:00.000Z',
  mode: 'live',
  measurementLocale: 'es',
  categoryLocalized: 'software CRM',
  audit: {
    score: 31,
    risk: 'high',
    brand: 'Pipedrive',
    website: 'https://www.pipedrive.com/',
    category: 'CRM software',
    measured: true,
    scoreInterval: [18, 47],
    mentionRate: 0.4,
    mentionRateInterval: [0.234, 0.593],
    confidence: 'low',
    degraded: true,
    samplesPerQuestion: 1,
    questions: 10,
    successfulSamples: 20,
    providersAsked: ['openai', 'anthropic', 'gemini'],
    providersAnswered: ['openai', 'anthropic'],
  },
  providerFindings: [
    {
      provider: 'openai',
      model: 'gpt-4.1-mini-2025-04-14',
      score: 42,
      scoreInterval: [22, 63],
      summary: '…',
      mentionRate: 0.6,
      mentionRateInterval: [0.313, 0.832],
      samples: 10,
      successfulSamples: 10,
      failedSamples: 0,
      averagePosition: 2.5,
      shareOfVoice: 0.2,
      topCompetitors: [],
      questions: [],
    },
    {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      score: 0,
      scoreInterval: [0, 28],
      summary: '…',
      mentionRate: 0,
      mentionRateInterval: [0, 0.278],
      samples: 10,
      successfulSamples: 10,
      failedSamples: 0,
      averagePosition: null,
      shareOfVoice: 0,
      topCompetitors: [],
      questions: [],
    },
  ],
  providerErrors: [{ provider: 'gemini', model: 'gemini-2.5-flash', reason: 'the provider refused the API key', kind: 'unavailable', failedSamples: 10 }],
  personalizedNextSteps: [
    { id: 'unblock-assistant-search-crawlers', priority: 'high', title: 'Allow assistant-search crawlers in robots.txt (OAI-SearchBot)', why: '…', how: '…' },
    { id: 'llms-txt', priority: 'low', title: 'Add an llms.txt file', why: '…', how: '…' },
  ],
  productFanout: { questions: Array.from({ length: 10 }, (_, index) => `pregunta ${index + 1}`), language: 'es' },
  categoryBenchmark: { audits: 4, averageScore: 52, medianScore: 55 },
  competitors: [
    { rank: 1, name: 'HubSpot', watched: true, namedInstead: 9, mentions: 14, byProvider: {} },
    { rank: 2, name: 'Zoho CRM', watched: false, namedInstead: 1, mentions: 3, byProvider: {} },
    { rank: 3, name: 'Monday', watched: false, namedInstead: 0, mentions: 2, byProvider: {} },
  ],
  degraded: true,
};

describe('formatAuditSummary', () => {
  it('shows the headline, each provider (a failed one as NOT MEASURED), who is named instead, questions, next steps and the id', () => {
    expect(formatAuditSummary(audit, { demo: false, email: { address: 'owner@pipedrive.com', delivery: 'sent by SMTP' } })).toBe(`Brand: Pipedrive
Website: https://www.pipedrive.com/
Category: CRM software (asked as "software CRM")
Language: es

Score: 31/100 (95% interval 18-47)
Risk: high
Confidence: low
Degraded: yes (the monthly budget is used up, so each question was asked once: lower confidence)
Mention rate: 40% (95% CI 23-59%) of 20 answers

By provider:
  openai (gpt-4.1-mini-2025-04-14): score 42, mention rate 60% (95% CI 31-83%), average position 2.5
  anthropic (claude-sonnet-4-5): score 0, mention rate 0% (95% CI 0-28%), never named
  gemini (gemini-2.5-flash): NOT MEASURED: the provider refused the API key (all 10 samples failed; this is not "not mentioned")

Named instead of Pipedrive:
  1. HubSpot: in 9 answers without Pipedrive (watched)
  2. Zoho CRM: in 1 answer without Pipedrive

Buyer questions: 10, each asked once to 3 providers (the brand is never named in them)

Next steps:
  [high] Allow assistant-search crawlers in robots.txt (OAI-SearchBot)
  [low] Add an llms.txt file

Category benchmark: average 52, median 55 over 4 other audits

Audit id: 6f1c2d4e-8a9b-4c3d-9e2f-1a2b3c4d5e6f
Created: 2026-01-15T10:00:00.000Z
Email: attached to owner@pipedrive.com; result mail sent by SMTP
`);
  });

  it('says when nothing was measured, and leads with the demo line in demo mode', () => {
    const text = formatAuditSummary(
      {
        ...audit,
        audit: { ...audit.audit, measured: false, score: 0, risk: 'unknown', scoreInterval: null, mentionRate: null, mentionRateInterval: null, notMeasuredReason: 'No model provider is configured on this deployment, so no question was asked.' },
        providerFindings: [],
        providerErrors: [],
        competitors: [],
        productFanout: null,
        fanoutMissingReason: 'No buyer questions.',
        categoryBenchmark: null,
      },
      { demo: true },
    );
    expect(text).toMatch(/^DEMO: /);
    expect(text).toContain('Score: NOT MEASURED. No model provider is configured on this deployment, so no question was asked.\nRisk: unknown\n');
    expect(text).not.toContain('Mention rate');
    expect(text).toContain('By provider: no provider was asked');
    expect(text).toContain('Named instead of Pipedrive: not measured');
    expect(text).toContain('Buyer questions: none (No buyer questions.)');
    expect(text).toContain('Category benchmark: no other audits in this category yet');
    expect(text).not.toContain('Email:');
  });
});

describe('describeWait', () => {
  it('reads as a person would say it', () => {
    expect([describeWait(30), describeWait(300), describeWait(3 * 3600), describeWait(9 * 86_400)]).toEqual(['30 s', '5 min', '3 h', '9 days']);
  });
});

describe('createProgressDisplay', () => {
  it('writes one line per step off a terminal, and redraws one line on a terminal', () => {
    let piped = '';
    const pipe = createProgressDisplay({ write: (text: string) => (piped += text), isTTY: false });
    pipe.note('Asking…');
    pipe.step({ completed: 1, total: 2, label: 'run 2 of 2: ok' });
    pipe.step({ completed: 2, total: 2, label: 'run 1 of 2: failed' });
    pipe.finish();
    expect(piped).toBe('Asking…\n  [1/2] run 2 of 2: ok\n  [2/2] run 1 of 2: failed\n');

    let terminal = '';
    const tty = createProgressDisplay({ write: (text: string) => (terminal += text), isTTY: true });
    tty.step({ completed: 1, total: 2, label: 'a' });
    tty.note('a warning');
    tty.step({ completed: 2, total: 2, label: 'b' });
    tty.finish();
    tty.finish();
    expect(terminal).toBe('\r\u001b[2K  [1/2] a\na warning\n\r\u001b[2K  [2/2] b\n');
  });

  it('shows the audit as one line per stage, with the answers counted per provider', () => {
    let text = '';
    const show = createAuditProgress(createProgressDisplay({ write: (chunk: string) => (text += chunk), isTTY: true }), ['openai', 'gemini']);
    show({ stage: 'crawl', completed: 0, total: 1, label: 'crawling https://acme.example/' });
    show({ stage: 'crawl', completed: 1, total: 1, label: 'site crawled' });
    show({ stage: 'questions', completed: 1, total: 1, label: '6 buyer questions' });
    show({ stage: 'answers', completed: 1, total: 4, label: 'gemini: question 1, sample 1: ok', provider: 'gemini' });
    show({ stage: 'answers', completed: 2, total: 4, label: 'openai: question 1, sample 1: ok', provider: 'openai' });
    show({ stage: 'answers', completed: 3, total: 4, label: 'openai: question 2, sample 1: failed', provider: 'openai' });
    show({ stage: 'answers', completed: 4, total: 4, label: 'gemini: question 2, sample 1: ok', provider: 'gemini' });
    show({ stage: 'findings', completed: 1, total: 1, label: 'score 62 (medium risk)' });
    const redraw = '\r\u001b[2K';
    expect(text).toBe(
      `${redraw}  crawl: crawling https://acme.example/${redraw}  crawl: site crawled\n${redraw}  questions: 6 buyer questions\n` +
        `${redraw}  answers: openai 0/2, gemini 1/2${redraw}  answers: openai 1/2, gemini 1/2${redraw}  answers: openai 2/2, gemini 1/2` +
        `${redraw}  answers: openai 2/2, gemini 2/2\n${redraw}  findings: score 62 (medium risk)\n`,
    );
  });
});
