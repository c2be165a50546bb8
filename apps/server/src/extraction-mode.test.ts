// EXTRACTION as the composition root wires it: the measurements read answers with the configured
// extractor; hybrid asks the live provider's cheap model through the real SDK (the simulator here).
import { findBrandsMentioned, startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestService, type TestService } from './test-support/service.js';

const QUESTION = 'What is the best CRM for a small agency?';

const isStructured = (body: unknown): boolean => typeof body === 'object' && body !== null && 'response_format' in body;

describe('EXTRACTION=hybrid on a live lineup', () => {
  let simulator: RunningSimulator;
  let test: TestService;
  beforeAll(async () => {
    simulator = await startSimulator({ seed: 3 });
    test = await startTestService({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: simulator.baseUrls.openai,
      EXTRACTION: 'hybrid',
      EXTRACTION_MODEL: 'gpt-4.1-nano',
    });
  });
  afterAll(async () => {
    await test.stop();
    await simulator.close();
  });

  it('says so at start', async () => {
    const line = test.logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry['extraction'] === 'hybrid');
    expect(line).toMatchObject({ provider: 'openai', model: 'gpt-4.1-nano' });
  });

  it('reads the repeat runs with the second opinion: one structured call per distinct answer, logged and budgeted', async () => {
    const callsBefore = test.service.store.repository.providerCallTotals(new Date(0)).calls;
    const spentBefore = (await test.service.budget.status()).spentMicroUsd;
    const { status, body } = await postJson(`${test.url}/api/tools/repeat`, { question: QUESTION, provider: 'openai' });
    expect(status).toBe(200);

    const runs = body.runs as Array<{ ok: boolean; answer: string; brands: string[] }>;
    const answers = runs.filter((run) => run.ok).map((run) => run.answer);
    expect(answers).toHaveLength(5);
    // The simulator's "cheap model" lists the world brands it reads in the answer; hybrid keeps exactly those.
    for (const run of runs) expect(run.brands).toEqual(findBrandsMentioned(run.answer));

    const structured = simulator.requests().filter((request) => isStructured(request.body));
    expect(structured).toHaveLength(new Set(answers).size);
    expect(structured.every((request) => request.model === 'gpt-4.1-nano')).toBe(true);
    const calls = test.service.store.repository.providerCallTotals(new Date(0)).calls - callsBefore;
    expect(calls).toBe(5 + structured.length);
    expect((await test.service.budget.status()).spentMicroUsd).toBeGreaterThan(spentBefore);
  });
});

describe('EXTRACTION=hybrid on the demo lineup', () => {
  let test: TestService;
  beforeAll(async () => {
    test = await startTestService({ EXTRACTION: 'hybrid' });
  });
  afterAll(async () => {
    await test.stop();
  });

  it('is ignored with a logged note, and no answer is sent for a model opinion', async () => {
    const entries = test.logLines.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', extraction: 'rules', msg: expect.stringMatching(/EXTRACTION=hybrid is ignored on the demo lineup/) }));
    const { status } = await postJson(`${test.url}/api/tools/repeat`, { question: QUESTION, provider: 'openai' });
    expect(status).toBe(200);
    const received = test.service.simulator?.requests() ?? [];
    expect(received).toHaveLength(5);
    expect(received.some((request) => isStructured(request.body))).toBe(false);
  });
});
