// The full audit through the real SDK adapters, against the provider simulator on loopback.
import { randomUUID } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditResponseSchema } from '../api/schemas.js';
import { promptMentionsBrand } from '../measurements/prompts.js';
import { createProviderLineup, type LineupOptions, type ProviderSettings } from '../providers/index.js';
import type { Provider, ProviderId } from '../providers/types.js';
import { runAudit } from './run-audit.js';
import { crawlReport } from './test-support/crawl-report.js';
import type { AuditInput, AuditProgress } from './types.js';

const DEMO_MODELS: Record<ProviderId, string> = {
  openai: 'demo-gpt-4.1-mini',
  anthropic: 'demo-claude-sonnet-4-5',
  gemini: 'demo-gemini-2.5-flash',
};
const noSleep = async (): Promise<void> => {};

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 7, latencyMs: 0 });
});

afterAll(async () => {
  await simulator.close();
});

beforeEach(() => {
  simulator.reset();
  simulator.setLatency(0);
});

/** The real SDK-backed lineup pointed at the simulator, as the demo mode builds it. */
function simulatorLineup(options: Partial<LineupOptions> = {}): Map<ProviderId, Provider> {
  const settings: Partial<Record<ProviderId, ProviderSettings>> = {};
  for (const id of ['openai', 'anthropic', 'gemini'] as const) {
    settings[id] = { apiKey: 'demo-key', baseURL: simulator.baseUrls[id], model: DEMO_MODELS[id] };
  }
  return createProviderLineup(settings, {
    timeoutMs: 15_000, // generous: no test here is about timeouts, and a loaded CI machine (the refit test) slowed a call past 5 s
    maxRetries: options.maxRetries ?? 0,
    maxConcurrentPerProvider: options.maxConcurrentPerProvider ?? 4,
    retry: { sleep: noSleep },
  });
}

// HubSpot leads the simulator world's CRM category; Pipedrive is watched.
const HUBSPOT: AuditInput = {
  brand: 'HubSpot',
  website: 'https://www.hubspot.com',
  category: 'CRM software',
  competitors: 'Pipedrive, Copper',
  crawl: crawlReport({ website: 'https://www.hubspot.com/', finalUrl: 'https://www.hubspot.com/' }),
};

describe('runAudit against the simulator', () => {
  it('gives findings for 3 providers, each question asked 3 times, and parses as an AuditResponse', async () => {
    const report = await runAudit({ mode: 'demo', lineup: simulatorLineup() }, HUBSPOT);
    const questions = report.productFanout?.questions ?? [];
    expect(questions.length).toBeGreaterThanOrEqual(6);
    expect(questions.length).toBeLessThanOrEqual(10);

    const requests = simulator.requests();
    expect(requests).toHaveLength(3 * questions.length * 3);
    expect(report.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    for (const finding of report.providerFindings) {
      expect(finding).toMatchObject({ samples: questions.length * 3, successfulSamples: questions.length * 3, failedSamples: 0 });
      expect(finding.model.startsWith('demo-')).toBe(true);
      expect(finding.questions).toHaveLength(questions.length);
      expect(finding.questions.every((question) => question.answers.length === 3)).toBe(true);
      expect(finding.summary).toMatch(/HubSpot/u);
    }
    // Each question reached every provider exactly 3 times, as an open buyer question about CRM.
    for (const question of questions) {
      for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
        expect(requests.filter((request) => request.prompt === question && request.provider === provider)).toHaveLength(3);
      }
    }
    expect(requests.every((request) => request.kind === 'buyer_question' && request.status === 200)).toBe(true);

    // The world's CRM leader is named often; its rivals show up as competitors, the watch list included.
    expect(report.audit.measured).toBe(true);
    expect(report.audit.score).toBeGreaterThan(0);
    expect(report.audit.providersAnswered).toHaveLength(3);
    expect(report.audit.confidence).toBe('high');
    const names = report.competitors.map((competitor) => competitor.name);
    expect(names).toEqual(expect.arrayContaining(['Salesforce', 'Pipedrive', 'Copper']));
    expect(names.some((name) => /hubspot/iu.test(name))).toBe(false);
    // What the findings count is what the simulator answered: per provider, the answers whose text names
    // HubSpot, and the answers naming Salesforce but not HubSpot.
    for (const finding of report.providerFindings) {
      const answers = requests.filter((request) => request.provider === finding.provider).map((request) => request.answer ?? '');
      const namingBrand = answers.filter((answer) => answer.includes('HubSpot')).length;
      expect(Math.round(finding.mentionRate * finding.successfulSamples), finding.provider).toBe(namingBrand);
      const salesforceInstead = answers.filter((answer) => answer.includes('Salesforce') && !answer.includes('HubSpot')).length;
      const salesforce = report.competitors.find((competitor) => competitor.name === 'Salesforce');
      expect(salesforce?.byProvider[finding.provider]?.namedInstead ?? 0, finding.provider).toBe(salesforceInstead);
    }

    const response = AuditResponseSchema.safeParse({ id: randomUUID(), createdAt: new Date().toISOString(), ...report });
    expect(response.error).toBeUndefined();
  });

  it('never sends the brand to a model in a buyer question', async () => {
    // The category contains the brand, as a domain too: it must still never reach the models.
    await runAudit({ mode: 'demo', lineup: simulatorLineup() }, { ...HUBSPOT, category: 'hubspot.com-like CRM software', location: 'Madrid' });
    const prompts = simulator.requests().map((request) => request.prompt);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      expect(promptMentionsBrand(prompt, 'HubSpot'), prompt).toBe(false);
      expect(prompt.toLowerCase().replace(/\s/gu, '')).not.toContain('hubspot');
      expect(prompt).toContain('Madrid');
    }
  });

  it('asks in Spanish when the measurement language is Spanish', async () => {
    const report = await runAudit({ mode: 'demo', lineup: simulatorLineup() }, { ...HUBSPOT, category: 'software CRM', promptLanguage: 'es' });
    expect(report.measurementLocale).toBe('es');
    const requests = simulator.requests();
    expect(requests.length).toBe(3 * (report.productFanout?.questions.length ?? 0) * 3);
    expect(requests.every((request) => request.language === 'es')).toBe(true);
    expect(report.providerFindings).toHaveLength(3);
  });

  it('asks each question once per provider in degraded mode', async () => {
    const report = await runAudit({ mode: 'demo', lineup: simulatorLineup() }, HUBSPOT, { degraded: true });
    const questions = report.audit.questions;
    expect(simulator.requests()).toHaveLength(3 * questions);
    expect(report).toMatchObject({ degraded: true, audit: { degraded: true, samplesPerQuestion: 1 } });
    for (const finding of report.providerFindings) expect(finding.samples).toBe(questions);
    expect(report.audit.confidence).not.toBe('high');
  });

  it('reports a provider failing throughout in providerErrors, not in findings, and still completes', async () => {
    simulator.injectFaults([{ kind: 'server_error', provider: 'gemini', times: 1000 }]);
    const report = await runAudit({ mode: 'demo', lineup: simulatorLineup({ maxRetries: 0 }) }, HUBSPOT);
    const questions = report.audit.questions;

    expect(report.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'openai']);
    expect(report.providerErrors).toEqual([
      { provider: 'gemini', model: DEMO_MODELS.gemini, reason: 'the provider was overloaded or answered with a server error', kind: 'overloaded', failedSamples: questions * 3 },
    ]);
    expect(report.audit).toMatchObject({ measured: true, providersAsked: ['openai', 'gemini', 'anthropic'], providersAnswered: ['openai', 'anthropic'] });
    // Nothing of gemini's appears as "not mentioned" anywhere.
    for (const competitor of report.competitors) expect(competitor.byProvider.gemini).toBeUndefined();
    const geminiRequests = simulator.requests().filter((request) => request.provider === 'gemini');
    expect(geminiRequests).toHaveLength(questions * 3);
    expect(geminiRequests.every((request) => request.status === 500)).toBe(true);
    expect(AuditResponseSchema.safeParse({ id: randomUUID(), createdAt: new Date().toISOString(), ...report }).success).toBe(true);
  });

  it('asks concurrently: every call is sent before any answer comes back', async () => {
    const warm = await runAudit({ mode: 'demo', lineup: simulatorLineup({ maxConcurrentPerProvider: 64 }) }, HUBSPOT, { degraded: true });
    simulator.reset();
    const calls = 3 * warm.audit.questions * 3;
    // No answer leaves the simulator until every call has arrived: an audit that waited for one answer
    // before asking the next would never get there (the test would time out). Order of events, not wall time.
    const allArrived = simulator.holdAnswersUntil(calls);
    const events: AuditProgress[] = [];
    const audit = runAudit({ mode: 'demo', lineup: simulatorLineup({ maxConcurrentPerProvider: 64 }) }, HUBSPOT, {
      onProgress: (event) => events.push(event),
    });
    await allArrived;
    const report = await audit;
    expect(report.audit.successfulSamples).toBe(calls);
    expect(simulator.requests()).toHaveLength(calls);
    expect(events.filter((event) => event.stage === 'answers')).toHaveLength(calls);
  });
});
