import { describe, expect, it } from 'vitest';
import { withConcurrencyLimit } from './concurrency.js';
import { deferred, fakeAnswer, FakeProvider, fakeFailure } from './test-support/fake-provider.js';
import type { Answer } from './types.js';

describe('withConcurrencyLimit', () => {
  it('keeps at most N calls in flight and completes them all', async () => {
    const fake = new FakeProvider([
      async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return fakeAnswer(request.prompt);
      },
    ]);
    const limited = withConcurrencyLimit(fake, 2);
    const answers = await Promise.all(Array.from({ length: 7 }, (_, index) => limited.ask({ prompt: `q${index}` })));
    expect(fake.maxInFlight).toBe(2);
    expect(answers.map((answer) => answer.text)).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
  });

  it('starts queued calls in arrival order', async () => {
    const gates = Array.from({ length: 4 }, () => deferred<Answer>());
    const fake = new FakeProvider(gates.map((gate) => () => gate.promise));
    const limited = withConcurrencyLimit(fake, 1);
    const asks = ['first', 'second', 'third', 'fourth'].map((prompt) => limited.ask({ prompt }));
    for (const gate of gates) {
      await new Promise((resolve) => setImmediate(resolve));
      gate.resolve(fakeAnswer('done'));
    }
    await Promise.all(asks);
    expect(fake.calls.map((call) => call.prompt)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('frees the slot when a call fails', async () => {
    const fake = new FakeProvider([fakeFailure('bad_request', { retryable: false }), 'ok']);
    const limited = withConcurrencyLimit(fake, 1);
    await expect(limited.ask({ prompt: 'a' })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(limited.ask({ prompt: 'b' })).resolves.toMatchObject({ text: 'ok' });
  });

  it('lets a queued caller give up without ever calling the provider', async () => {
    const gate = deferred<Answer>();
    const fake = new FakeProvider([() => gate.promise]);
    const limited = withConcurrencyLimit(fake, 1);
    const running = limited.ask({ prompt: 'running' });
    const controller = new AbortController();
    const queued = limited.ask({ prompt: 'queued', signal: controller.signal });
    controller.abort(new Error('never mind'));
    await expect(queued).rejects.toThrow('never mind');
    gate.resolve(fakeAnswer('done'));
    await running;
    expect(fake.calls.map((call) => call.prompt)).toEqual(['running']);
  });

  it('keeps the wrapped id and model', () => {
    const limited = withConcurrencyLimit(new FakeProvider(['x'], 'gemini'), 3);
    expect(limited.id).toBe('gemini');
    expect(limited.model).toBe('fake-model');
  });
});
