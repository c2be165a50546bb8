// Hand-built sampling results for the findings and competitor tests.

import { ProviderFailure, type ProviderFailureKind, type ProviderId } from '../../providers/types.js';
import type { ProviderSamples, SampledCall } from '../sampling.js';

/** A successful call that named these brands; `position` is where the brand stands (null: not named). */
export function answered(brands: string[], position: number | null, questionIndex = 0, sampleIndex = 0): SampledCall {
  return { questionIndex, sampleIndex, ok: true, answer: brands.join(', '), model: 'demo-model-2025-01-01', brands, named: position !== null, position };
}

/** A failed call. */
export function failed(provider: ProviderId, kind: ProviderFailureKind = 'overloaded', questionIndex = 0, sampleIndex = 0): SampledCall {
  return {
    questionIndex,
    sampleIndex,
    ok: false,
    answer: null,
    model: null,
    brands: [],
    named: false,
    position: null,
    failure: new ProviderFailure({ kind, provider, message: `${kind} in a test`, attempts: 1 }),
  };
}

export function providerSamples(provider: ProviderId, calls: SampledCall[], model = `demo-${provider}`): ProviderSamples {
  return { provider, model, calls };
}
