import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuditResponseSchema } from '../api/schemas.js';
import { createBudget } from '../budget/budget.js';
import { withBudget } from '../budget/with-budget.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import type { BrandExtractionRequest, BrandExtractor } from '../extraction/second-opinion.js';
import { ProviderFailure, type AskRequest, type Provider, type ProviderId } from '../providers/types.js';
import { runAudit } from './run-audit.js';
import { crawlReport } from './test-support/crawl-report.js';
import type { AuditDependencies, AuditInput, AuditProgress } from './types.js';

interface FakeProvider extends Provider {
  prompts: string[];
}

/** A provider that answers every prompt with the same text (or fails with the given failure). */
function fakeProvider(id: ProviderId, answer: string | ProviderFailure, model = `demo-${id}`): FakeProvider {
  const prompts: string[] = [];
  return {
    id,
    model,
    prompts,
    async ask(request: AskRequest) {
      prompts.push(request.prompt);
      request.signal?.throwIfAborted();
      if (answer instanceof ProviderFailure) throw answer;
      return { provider: id, model: `${model}-2025`, text: answer, usage: { inputTokens: 10, outputTokens: 20 }, latencyMs: 1, attempts: 1 };
    },
  };
}

const NAMES_BRAND = 'Here are good options:\n\n1. **Salesforce** — the enterprise leader.\n2. **HubSpot** — a generous free tier.\n3. **Pipedrive** — simple pipelines.';
const NAMES_OTHERS = 'Consider these:\n\n1. **Salesforce** — the enterprise leader.\n2. **Zoho CRM** — affordable.';

function lineupOf(...providers: FakeProvider[]): AuditDependencies {
  return { mode: 'demo', lineup: new Map(providers.map((provider) => [provider.id, provider])) };
}

const input: AuditInput = { brand: 'HubSpot', website: 'https://www.hubspot.com', category: 'CRM software', competitors: 'Pipedrive, Copper', crawl: crawlReport() };

/** What the REST layer will add before answering. */
function asResponse(report: object): unknown {
  return { id: randomUUID(), createdAt: new Date().toISOString(), ...report };
}

describe('runAudit', () => {
  it('returns findings, competitors and next steps that parse as an AuditResponse once id and createdAt are added', async () => {
    const openai = fakeProvider('openai', NAMES_BRAND);
    const gemini = fakeProvider('gemini', NAMES_OTHERS);
    const report = await runAudit(lineupOf(openai, gemini), input);

    expect(AuditResponseSchema.safeParse(asResponse(report)).success).toBe(true);
    expect(report).toMatchObject({ mode: 'demo', measurementLocale: 'en', categoryLocalized: 'CRM software', categoryBenchmark: null, degraded: false, providerErrors: [] });
    const questions = report.productFanout?.questions ?? [];
    expect(questions.length).toBeGreaterThanOrEqual(6);
    expect(report.productFanout?.language).toBe('en');
    expect(report).not.toHaveProperty('fanoutMissingReason');
    // Every question asked 3 times to each provider, verbatim.
    expect(openai.prompts).toHaveLength(questions.length * 3);
    expect([...new Set(openai.prompts)].sort()).toEqual([...questions].sort());

    const [openaiFinding, geminiFinding] = report.providerFindings;
    expect(openaiFinding).toMatchObject({ provider: 'openai', model: 'demo-openai-2025', mentionRate: 1, averagePosition: 2, score: 90, samples: questions.length * 3 });
    expect(geminiFinding).toMatchObject({ provider: 'gemini', mentionRate: 0, averagePosition: null, score: 0 });
    expect(report.audit).toMatchObject({
      brand: 'HubSpot',
      website: 'https://www.hubspot.com',
      category: 'CRM software',
      measured: true,
      score: 45,
      risk: 'medium',
      mentionRate: 0.5,
      samplesPerQuestion: 3,
      questions: questions.length,
      successfulSamples: questions.length * 6,
      providersAsked: ['openai', 'gemini'],
      providersAnswered: ['openai', 'gemini'],
      degraded: false,
    });
    expect(report.audit).not.toHaveProperty('notMeasuredReason');
    // Salesforce is named in every answer, Zoho CRM in every answer without HubSpot: both ahead of the watch list.
    expect(report.competitors.map((competitor) => [competitor.name, competitor.watched])).toEqual([
      ['Salesforce', false],
      ['Zoho CRM', false],
      ['Pipedrive', true],
      ['Copper', true],
    ]);
    expect(report.personalizedNextSteps.map((step) => step.id)).toContain('comparison-pages');
  });

  it('measures in the language of the crawl unless promptLanguage says otherwise', async () => {
    const openai = fakeProvider('openai', NAMES_BRAND);
    const spanishSite = { ...input, category: 'software CRM', crawl: crawlReport({ language: 'es' }) };
    const spanish = await runAudit(lineupOf(openai), spanishSite);
    expect(spanish.measurementLocale).toBe('es');
    expect(spanish.productFanout?.language).toBe('es');
    expect(openai.prompts.every((prompt) => prompt.startsWith('¿'))).toBe(true);
    const english = await runAudit(lineupOf(fakeProvider('openai', NAMES_BRAND)), { ...spanishSite, promptLanguage: 'en' });
    expect(english.measurementLocale).toBe('en');
    expect(english.categoryLocalized).toBe('software CRM');
  });

  it('skips sampling when no buyer question can be written, and still reports the site’s next steps', async () => {
    const openai = fakeProvider('openai', NAMES_BRAND);
    const crawl = crawlReport({ llmsTxt: { url: undefined, present: false, httpStatus: 404, bytes: 0 } });
    const report = await runAudit(lineupOf(openai), { ...input, category: 'HubSpot alternatives', crawl });
    expect(openai.prompts).toEqual([]);
    expect(report.productFanout).toBeNull();
    expect(report.fanoutMissingReason).toMatch(/HubSpot alternatives/u);
    expect(report.providerFindings).toEqual([]);
    expect(report.audit).toMatchObject({ measured: false, score: 0, risk: 'unknown', scoreInterval: null, providersAsked: [] });
    expect(report.audit.notMeasuredReason).toMatch(/No buyer questions/u);
    expect(report.personalizedNextSteps.map((step) => step.id)).toEqual(['add-llms-txt']);
    expect(AuditResponseSchema.safeParse(asResponse(report)).success).toBe(true);
  });

  it('reports "not measured", not a score of 0 for the brand, when every provider fails', async () => {
    const failure = (id: ProviderId): ProviderFailure => new ProviderFailure({ kind: 'unavailable', provider: id, message: 'refused' });
    const report = await runAudit(lineupOf(fakeProvider('openai', failure('openai')), fakeProvider('anthropic', failure('anthropic'))), input);
    expect(report.providerFindings).toEqual([]);
    expect(report.providerErrors.map((error) => [error.provider, error.kind, error.failedSamples])).toEqual([
      ['openai', 'unavailable', report.audit.questions * 3],
      ['anthropic', 'unavailable', report.audit.questions * 3],
    ]);
    expect(report.audit).toMatchObject({ measured: false, score: 0, risk: 'unknown', providersAnswered: [] });
    expect(report.audit.notMeasuredReason).toMatch(/^Every provider asked failed/u);
    // No "get listed" advice from answers that never came.
    expect(report.personalizedNextSteps.some((step) => step.id === 'get-listed-where-assistants-look')).toBe(false);
    expect(AuditResponseSchema.safeParse(asResponse(report)).success).toBe(true);
  });

  it('reports "not measured" when no provider is configured', async () => {
    const report = await runAudit({ mode: 'live', lineup: new Map() }, input);
    expect(report.mode).toBe('live');
    expect(report.audit).toMatchObject({ measured: false, risk: 'unknown' });
    expect(report.audit.notMeasuredReason).toMatch(/No model provider/u);
    expect(report.productFanout?.questions.length).toBeGreaterThanOrEqual(6);
  });

  it('reads every answer with the injected brand extractor, given the brand and the watch list', async () => {
    const openai = fakeProvider('openai', NAMES_BRAND);
    const requests: Array<BrandExtractionRequest | undefined> = [];
    // An extractor that disagrees with the rules (HubSpot first): the findings must follow it.
    const brandExtractor: BrandExtractor = {
      mode: 'hybrid',
      extract: async (_answer, request) => {
        requests.push(request);
        return ['HubSpot', 'Salesforce'];
      },
    };
    const report = await runAudit({ ...lineupOf(openai), brandExtractor }, input);
    expect(requests).toHaveLength(openai.prompts.length);
    expect(requests[0]).toMatchObject({ brand: 'HubSpot', competitors: ['Pipedrive', 'Copper'] });
    expect(report.providerFindings[0]).toMatchObject({ mentionRate: 1, averagePosition: 1 });
  });

  it('reports progress through questions, answers (per provider) and findings', async () => {
    const events: AuditProgress[] = [];
    const report = await runAudit(lineupOf(fakeProvider('openai', NAMES_BRAND), fakeProvider('anthropic', NAMES_OTHERS)), input, {
      onProgress: (event) => events.push(event),
    });
    const total = report.audit.questions * 3 * 2;
    const answers = events.filter((event) => event.stage === 'answers');
    expect(events[0]).toMatchObject({ stage: 'questions', completed: 0 });
    expect(events.at(-1)).toMatchObject({ stage: 'findings', completed: 1, total: 1 });
    expect(answers).toHaveLength(total);
    expect(answers.map((event) => event.completed)).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    expect(answers.every((event) => event.total === total)).toBe(true);
    expect(new Set(answers.map((event) => event.provider))).toEqual(new Set(['openai', 'anthropic']));
    const stages = events.map((event) => event.stage);
    expect(stages.lastIndexOf('questions')).toBeLessThan(stages.indexOf('answers'));
    expect(stages.lastIndexOf('answers')).toBeLessThan(stages.indexOf('findings'));
  });

  it('calls beforeSpend once before the first provider call, and stops when it throws', async () => {
    const openai = fakeProvider('openai', NAMES_BRAND);
    const refused = new Error('rate limited');
    await expect(
      runAudit(lineupOf(openai), input, {
        beforeSpend: () => {
          throw refused;
        },
      }),
    ).rejects.toBe(refused);
    expect(openai.prompts).toEqual([]);

    let calls = 0;
    await runAudit(lineupOf(openai), input, { beforeSpend: () => (calls += 1) });
    expect(calls).toBe(1);
  });

  it('rejects with the signal’s reason when cancelled', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    const openai = fakeProvider('openai', NAMES_BRAND);
    const promise = runAudit(lineupOf(openai), input, { signal: controller.signal, onProgress: () => controller.abort(reason) });
    await expect(promise).rejects.toBe(reason);
  });

  it('refuses fewer than 3 samples per question', async () => {
    await expect(runAudit(lineupOf(fakeProvider('openai', NAMES_BRAND)), input, { samplesPerQuestion: 2 })).rejects.toThrow(RangeError);
  });
});

describe('runAudit when the monthly budget is used up', () => {
  const { open } = useTempStores('degraded-audit');
  const now = () => new Date('2026-03-10T12:00:00Z');

  /** $1 a month, half of it kept for degraded audits, with `spentMicroUsd` already spent; priced models wrapped as the service wraps them. */
  function pricedAudit(spentMicroUsd: number, monthlyBudgetUsd = 1) {
    const store = open();
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd, degradedReserveFraction: 0.5, now });
    store.budgetRepository.addSpend('2026-03', spentMicroUsd, 1, now());
    const openai = fakeProvider('openai', NAMES_BRAND, 'gpt-4.1-mini');
    const anthropic = fakeProvider('anthropic', NAMES_OTHERS, 'claude-sonnet-4-5');
    const lineup = new Map<ProviderId, Provider>([
      ['openai', withBudget(openai, budget)],
      ['anthropic', withBudget(anthropic, budget)],
    ]);
    return { budget, openai, anthropic, dependencies: { mode: 'live', lineup, budget } satisfies AuditDependencies };
  }

  it('asks each provider each question once, paid from the reserve, says it is degraded and reports wider intervals', async () => {
    const { budget, openai, anthropic, dependencies } = pricedAudit(500_000);
    expect((await budget.hasBudgetLeft('gpt-4.1-mini'))).toBe(false);
    const report = await runAudit(dependencies, input);
    expect(report.degraded).toBe(true);
    expect(report.audit).toMatchObject({ degraded: true, samplesPerQuestion: 1, measured: true, providersAnswered: ['openai', 'anthropic'] });
    const questions = report.productFanout?.questions ?? [];
    expect(openai.prompts).toEqual(questions);
    expect(anthropic.prompts).toEqual(questions);
    expect(report.audit.confidence).not.toBe('high');
    // Every reservation of the allowance was settled at the real cost, and the cap held.
    const status = (await budget.status());
    expect(status.reservedMicroUsd).toBe(0);
    expect(status.spentMicroUsd).toBeGreaterThan(500_000);
    expect(status.spentMicroUsd).toBeLessThanOrEqual(status.capMicroUsd);

    // The same answers asked three times each (a full audit) give a narrower interval.
    const full = await runAudit(lineupOf(fakeProvider('openai', NAMES_BRAND), fakeProvider('anthropic', NAMES_OTHERS)), input);
    const width = (interval: readonly [number, number] | null) => (interval === null ? Number.NaN : interval[1] - interval[0]);
    expect(full.audit.mentionRate).toBe(report.audit.mentionRate);
    expect(width(report.audit.mentionRateInterval)).toBeGreaterThan(width(full.audit.mentionRateInterval));
    expect(width(report.audit.scoreInterval)).toBeGreaterThan(width(full.audit.scoreInterval));
  });

  it('reads with the rules alone in degraded mode, rather than spending what is left on second opinions', async () => {
    const { dependencies } = pricedAudit(500_000);
    let asked = 0;
    const brandExtractor: BrandExtractor = {
      mode: 'hybrid',
      extract: async () => {
        asked += 1;
        return [];
      },
    };
    const report = await runAudit({ ...dependencies, brandExtractor }, input);
    expect(report.degraded).toBe(true);
    expect(asked).toBe(0);
    expect(report.providerFindings[0]).toMatchObject({ provider: 'openai', mentionRate: 1, averagePosition: 2 });
  });

  it('runs degraded as soon as what is left for ordinary calls cannot pay for a full audit, not only at zero', async () => {
    // The ordinary half ($0.50) with $0.20 left: a full audit (2 providers x questions x 3 samples at up to
    // 1,024 output tokens, mostly Sonnet) is estimated above that, so it would run dry part way.
    const tight = pricedAudit(300_000);
    expect((await tight.budget.hasBudgetLeft('claude-sonnet-4-5'))).toBe(true);
    const degraded = await runAudit(tight.dependencies, input);
    expect(degraded.audit).toMatchObject({ degraded: true, samplesPerQuestion: 1, measured: true });
    expect(tight.anthropic.prompts).toHaveLength(degraded.audit.questions);

    // With $1 of ordinary money left (a $2 budget) the same audit is a full one, three samples per question.
    const roomy = pricedAudit(0, 2);
    const full = await runAudit(roomy.dependencies, input);
    expect(full.audit).toMatchObject({ degraded: false, samplesPerQuestion: 3 });
    expect(roomy.anthropic.prompts).toHaveLength(full.audit.questions * 3);
    expect(full.providerErrors).toEqual([]);
  });

  it('asks no provider and says why when the reserve cannot pay for the whole question set', async () => {
    // 999,000 of 1,000,000 spent: the 1,000 left cannot pay for one question set, so nothing is reserved or asked.
    const { budget, openai, anthropic, dependencies } = pricedAudit(999_000);
    const report = await runAudit(dependencies, input);
    expect(openai.prompts).toEqual([]);
    expect(anthropic.prompts).toEqual([]);
    expect(report.audit).toMatchObject({ degraded: true, measured: false, risk: 'unknown', samplesPerQuestion: 1 });
    expect(report.audit.notMeasuredReason).toMatch(/including its reserve for degraded audits, is used up until 2026-04-01/u);
    expect(report.providerErrors.map((error) => [error.provider, error.kind])).toEqual([
      ['openai', 'budget'],
      ['anthropic', 'budget'],
    ]);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 999_000, reservedMicroUsd: 0 });
    expect(AuditResponseSchema.safeParse(asResponse(report)).success).toBe(true);
  });

  it('releases the reservations of the allowance that no call settled', async () => {
    // Providers without the budget wrapper never settle the reservation they are handed: the audit does.
    const { budget, openai, anthropic, dependencies } = pricedAudit(500_000);
    const report = await runAudit({ ...dependencies, lineup: lineupOf(openai, anthropic).lineup }, input);
    expect(report.audit).toMatchObject({ degraded: true, measured: true });
    expect(openai.prompts).toHaveLength(report.audit.questions);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 500_000, reservedMicroUsd: 0 });
  });
});
