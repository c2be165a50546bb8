import { describe, expect, it } from 'vitest';
import { tallyCompetitors } from './competitors.js';
import { buildProviderOutcome, computeOverall, summarizeFinding } from './findings.js';
import { brandMatcherFor } from './sampling.js';
import { answered, failed, providerSamples } from './test-support/samples.js';
import type { ProviderSamples } from './sampling.js';

const QUESTIONS = ['Which CRM software would you recommend?', 'What are good alternatives to the most popular CRM software?', 'On a tight budget, which CRM software would you choose?'];
const brand = brandMatcherFor('HubSpot');

function outcomeOf(samples: ProviderSamples, all: ProviderSamples[] = [samples]): ReturnType<typeof buildProviderOutcome> {
  return buildProviderOutcome(samples, QUESTIONS, tallyCompetitors(all, brand, []), 'HubSpot');
}

describe('buildProviderOutcome', () => {
  it('reports the mention rate with its Wilson interval, position, share of voice, score and per-question results', () => {
    // 9 samples: questions 0 and 1 name HubSpot every time (2nd), question 2 once (1st); 2 answers name others only.
    const calls = [
      answered(['Salesforce', 'HubSpot'], 2, 0, 0),
      answered(['Salesforce', 'HubSpot'], 2, 0, 1),
      answered(['Pipedrive', 'HubSpot'], 2, 0, 2),
      answered(['Salesforce', 'HubSpot', 'Pipedrive'], 2, 1, 0),
      answered(['Salesforce', 'HubSpot'], 2, 1, 1),
      answered(['Zoho CRM', 'HubSpot'], 2, 1, 2),
      answered(['HubSpot', 'Salesforce'], 1, 2, 0),
      answered(['Salesforce', 'Pipedrive'], null, 2, 1),
      answered(['Pipedrive'], null, 2, 2),
    ];
    const outcome = outcomeOf(providerSamples('openai', calls));
    if (!outcome.answered) throw new Error('expected a finding');
    const { finding } = outcome;
    expect(finding).toMatchObject({
      provider: 'openai',
      model: 'demo-model-2025-01-01',
      samples: 9,
      successfulSamples: 9,
      failedSamples: 0,
      mentionRate: 0.778,
      mentionRateInterval: [0.453, 0.937],
      // (6 × 2 + 1) / 7
      averagePosition: 1.857,
      // 7 brand mentions / (7 + 11 competitor mentions: Salesforce 6, Pipedrive 4, Zoho CRM 1)
      shareOfVoice: 0.389,
    });
    // 100 × (6 × 0.9 + 1 × 1) / 9 = 71.1; interval = Wilson interval of the mean 0.711 over 9 answers.
    expect(finding.score).toBe(71);
    expect(finding.scoreInterval).toEqual([39, 90]);
    expect(finding.summary).toBe('Named HubSpot in 7 of 9 answers (78%, 95% CI 45–94%), usually 2nd; most often named instead: Pipedrive, Salesforce.');
    expect(finding.topCompetitors[0]).toEqual({ name: 'Pipedrive', namedInstead: 2, mentions: 4 });
    expect(finding.questions.map(({ namedIn, named, successfulSamples, averagePosition }) => ({ namedIn, named, successfulSamples, averagePosition }))).toEqual([
      { namedIn: 3, named: true, successfulSamples: 3, averagePosition: 2 },
      { namedIn: 3, named: true, successfulSamples: 3, averagePosition: 2 },
      { namedIn: 1, named: true, successfulSamples: 3, averagePosition: 1 },
    ]);
    expect(finding.questions[2]?.answers[2]).toEqual({ ok: true, named: false, position: null, brands: ['Pipedrive'] });
  });

  it('counts failed samples apart: the rate is over successful answers only', () => {
    const outcome = outcomeOf(providerSamples('gemini', [answered(['HubSpot'], 1, 0, 0), answered(['Salesforce'], null, 0, 1), failed('gemini', 'timeout', 0, 2)]));
    if (!outcome.answered) throw new Error('expected a finding');
    expect(outcome.finding).toMatchObject({ samples: 3, successfulSamples: 2, failedSamples: 1, mentionRate: 0.5, score: 50 });
    expect(outcome.finding.questions[0]?.answers[2]).toEqual({ ok: false, named: false, position: null, brands: [] });
    expect(outcome.finding.summary).toMatch(/ 1 more call failed and is not counted\.$/u);
  });

  it('says so when the provider never named the brand, and has no position', () => {
    const outcome = outcomeOf(providerSamples('anthropic', [answered(['Salesforce', 'Pipedrive'], null), answered(['Salesforce'], null, 1)]));
    if (!outcome.answered) throw new Error('expected a finding');
    expect(outcome.finding).toMatchObject({ mentionRate: 0, averagePosition: null, score: 0, shareOfVoice: 0 });
    expect(outcome.finding.summary).toBe('Did not name HubSpot in any of 2 answers (0%, 95% CI 0–66%); named instead: Salesforce, Pipedrive.');
  });

  it('turns a provider whose samples all failed into an error, not a finding of zero', () => {
    const outcome = outcomeOf(
      providerSamples('gemini', [failed('gemini', 'overloaded'), failed('gemini', 'overloaded', 1), failed('gemini', 'rate_limited', 2)], 'demo-gemini-2.5-flash'),
    );
    expect(outcome).toEqual({
      answered: false,
      error: {
        provider: 'gemini',
        model: 'demo-gemini-2.5-flash',
        reason: 'the provider was overloaded or answered with a server error',
        kind: 'overloaded',
        failedSamples: 3,
      },
    });
  });

  it('reports an unexpected (non-provider) failure as such', () => {
    const broken = { ...failed('openai'), failure: new TypeError('bug') };
    const outcome = outcomeOf(providerSamples('openai', [broken]));
    expect(outcome).toMatchObject({ answered: false, error: { kind: 'unexpected', reason: 'the call failed unexpectedly', failedSamples: 1 } });
  });
});

describe('computeOverall', () => {
  it('weights provider scores by successful samples (the pooled score) and derives risk and confidence', () => {
    const openai = providerSamples('openai', Array.from({ length: 9 }, (_, index) => answered(['HubSpot'], 1, index)));
    const gemini = providerSamples('gemini', [answered(['Salesforce'], null), answered(['Salesforce'], null, 1), failed('gemini')]);
    const overall = computeOverall({ providers: [openai, gemini], degraded: false });
    // openai 100 over 9 answers, gemini 0 over 2: (100 × 9 + 0 × 2) / 11 = 81.8.
    expect(overall).toMatchObject({ measured: true, score: 82, risk: 'low', mentionRate: 0.818, successfulSamples: 11, confidence: 'low' });
    expect(overall.scoreInterval).toEqual([52, 95]);
  });

  it('is "not measured" (score 0, risk unknown) when no provider answered', () => {
    const overall = computeOverall({ providers: [providerSamples('openai', [failed('openai')])], degraded: true });
    expect(overall).toEqual({
      measured: false,
      score: 0,
      scoreInterval: null,
      mentionRate: null,
      mentionRateInterval: null,
      risk: 'unknown',
      confidence: 'low',
      successfulSamples: 0,
    });
  });

  it('is measured with score 0 and critical risk when providers answered but never named the brand', () => {
    const overall = computeOverall({ providers: [providerSamples('openai', [answered(['Salesforce'], null)])], degraded: false });
    expect(overall).toMatchObject({ measured: true, score: 0, risk: 'critical' });
  });
});

describe('summarizeFinding', () => {
  it('uses ordinals and singulars correctly', () => {
    expect(
      summarizeFinding({ brand: 'Acme', named: 1, successful: 1, failed: 2, interval: [0.207, 1], usualPosition: 3, namedInstead: [] }),
    ).toBe('Named Acme in 1 of 1 answer (100%, 95% CI 21–100%), usually 3rd. 2 more calls failed and are not counted.');
    expect(
      summarizeFinding({ brand: 'Acme', named: 0, successful: 3, failed: 0, interval: [0, 0.562], usualPosition: null, namedInstead: [] }),
    ).toBe('Did not name Acme in any of 3 answers (0%, 95% CI 0–56%); it named no other brand either.');
    expect(
      summarizeFinding({ brand: 'Acme', named: 2, successful: 4, failed: 0, interval: [0.15, 0.85], usualPosition: 11.5, namedInstead: ['A', 'B', 'C', 'D'] }),
    ).toBe('Named Acme in 2 of 4 answers (50%, 95% CI 15–85%), usually 12th; most often named instead: A, B, C.');
  });
});
