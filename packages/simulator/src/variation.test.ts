import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import { ask, listedBrands } from './test-support/vendors.js';
import type { VendorApi } from './test-support/vendors.js';
import type { RunningSimulator } from './types.js';

const BUYER_QUESTION = 'What is the best CRM for a small agency?';
const APIS: readonly VendorApi[] = ['chat', 'responses', 'messages', 'gemini'];

const running: RunningSimulator[] = [];
async function fresh(seed: number): Promise<RunningSimulator> {
  const simulator = await startSimulator({ seed });
  running.push(simulator);
  return simulator;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((simulator) => simulator.close()));
});

async function askRepeatedly(simulator: RunningSimulator, api: VendorApi, prompt: string, times: number): Promise<string[]> {
  const answers: string[] = [];
  for (let run = 0; run < times; run++) answers.push(await ask(simulator, api, prompt));
  return answers;
}

describe('run-to-run variation', () => {
  it('replays the same sequence of answers from a fresh simulator with the same seed', async () => {
    const [first, second] = [await fresh(42), await fresh(42)];
    for (const api of APIS) {
      expect(await askRepeatedly(second, api, BUYER_QUESTION, 4), api).toEqual(await askRepeatedly(first, api, BUYER_QUESTION, 4));
    }
  });

  it('gives a different sequence for a different seed', async () => {
    const [first, second] = [await fresh(42), await fresh(43)];
    expect(await askRepeatedly(second, 'chat', BUYER_QUESTION, 4)).not.toEqual(await askRepeatedly(first, 'chat', BUYER_QUESTION, 4));
  });

  it.each(APIS)('%s: five runs of one buyer question name at least two distinct brand lists around a stable core', async (api) => {
    const simulator = await fresh(42);
    const lists = (await askRepeatedly(simulator, api, BUYER_QUESTION, 5)).map(listedBrands);
    for (const list of lists) expect(list.length).toBeGreaterThanOrEqual(4);
    expect(new Set(lists.map((list) => list.join('|'))).size).toBeGreaterThanOrEqual(2);
    const [firstList = [], ...others] = lists;
    const core = firstList.filter((brand) => others.every((list) => list.includes(brand)));
    expect(core.length).toBeGreaterThanOrEqual(3);
  });

  it('reset() replays answers from the first call again', async () => {
    const simulator = await fresh(42);
    const before = await askRepeatedly(simulator, 'gemini', BUYER_QUESTION, 3);
    simulator.reset();
    expect(await askRepeatedly(simulator, 'gemini', BUYER_QUESTION, 3)).toEqual(before);
  });

  it('counts calls per prompt and model, so other traffic does not shift a sequence', async () => {
    const [quiet, busy] = [await fresh(42), await fresh(42)];
    const expected = await askRepeatedly(quiet, 'chat', BUYER_QUESTION, 3);
    const actual: string[] = [];
    for (let run = 0; run < 3; run++) {
      await ask(busy, 'chat', 'List the 5 best VPN brands, one per line.');
      await ask(busy, 'chat', BUYER_QUESTION, { model: 'demo-gpt-4o' });
      actual.push(await ask(busy, 'chat', BUYER_QUESTION));
    }
    expect(actual).toEqual(expected);
  });
});
