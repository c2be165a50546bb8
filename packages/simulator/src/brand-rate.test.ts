import { describe, expect, it } from 'vitest';
import { composeAnswer } from './compose.js';
import { startSimulator } from './server.js';

const PROMPT = 'What is the best CRM software for a small agency?';

function namedShare(brand: string, brandRates?: ReadonlyMap<string, number>, calls = 400): number {
  let named = 0;
  for (let counter = 0; counter < calls; counter++) {
    const answer = composeAnswer({ prompt: PROMPT, model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter, brandRates });
    if (answer.brands.includes(brand)) named += 1;
  }
  return named / calls;
}

describe('a brand rate set on the simulator', () => {
  it('names the brand in that share of answers, whatever its own preference', () => {
    expect(namedShare('Pipedrive', new Map([['pipedrive', 0]]))).toBe(0);
    expect(namedShare('Pipedrive', new Map([['pipedrive', 1]]))).toBe(1);
    const half = namedShare('Pipedrive', new Map([['pipedrive', 0.5]]));
    expect(half).toBeGreaterThan(0.42);
    expect(half).toBeLessThan(0.58);
  });

  it('leaves the other brands as they were', () => {
    const without = composeAnswer({ prompt: PROMPT, model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter: 3 }).brands;
    const shifted = composeAnswer({ prompt: PROMPT, model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter: 3, brandRates: new Map([['pipedrive', 0]]) }).brands;
    expect(shifted).toEqual(without.filter((name) => name !== 'Pipedrive'));
  });

  it('is set and cleared on a running simulator, in process and over the control endpoint', async () => {
    const simulator = await startSimulator();
    try {
      simulator.setBrandRate('Pipedrive', 0.25);
      const bad = await fetch(`${simulator.url}/__simulator/brand-rate`, { method: 'POST', body: JSON.stringify({ brand: 'Pipedrive', rate: 2 }) });
      expect(bad.status).toBe(400);
      const set = await fetch(`${simulator.url}/__simulator/brand-rate`, { method: 'POST', body: JSON.stringify({ brand: 'HubSpot', rate: 0 }) });
      expect(await set.json()).toEqual({ brandRates: { pipedrive: 0.25, hubspot: 0 } });
      simulator.setBrandRate('Pipedrive', undefined);
      simulator.reset();
      const cleared = await fetch(`${simulator.url}/__simulator/brand-rate`, { method: 'POST', body: JSON.stringify({ brand: 'Close', rate: null }) });
      expect(await cleared.json()).toEqual({ brandRates: {} });
    } finally {
      await simulator.close();
    }
  });
});
