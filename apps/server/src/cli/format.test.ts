import { describe, expect, it } from 'vitest';
import type { CheckResponse, RepeatResponse } from '@visibility/core';
import { describeWait, formatCheckSummary, formatRepeatSummary } from './format.js';
import { createProgressDisplay } from './progress.js';

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
});
