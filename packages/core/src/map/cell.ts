// One cell of the map: a buyer question asked once, verbatim, to one provider, reduced to the brands the
// answer names and where the audited brand stands among them. The same extraction as the audit's samples.

import { brandMatcherFor } from '../audit/sampling.js';
import { positionInList, type BrandMatcher } from '../extraction/index.js';
import type { BrandExtractor } from '../extraction/second-opinion.js';
import { describeProviderFailure } from '../measurements/errors.js';
import { ProviderFailure, type Provider } from '../providers/types.js';
import type { MapCellRecord, MapJobRecord } from '../store/map-repository.js';

/** What the call log records map calls as. */
export const MAP_PURPOSE = 'map.buyer_question';

/** The job's brand matcher: the brand plus its website's domain as another written form. */
export function jobBrandMatcher(job: Pick<MapJobRecord, 'brand' | 'website'>): BrandMatcher {
  return brandMatcherFor(job.brand, job.website);
}

/**
 * Asks one cell. A failed call is a failed cell (stored like an answer); only a call cut by `signal`
 * (the service stopping) gives undefined, so the cell stays unstored and is asked again on resume.
 */
export async function measureCell(
  provider: Provider,
  extractor: BrandExtractor,
  job: MapJobRecord,
  questionIndex: number,
  matcher: BrandMatcher,
  signal: AbortSignal,
  now: () => Date,
): Promise<MapCellRecord | undefined> {
  const question = job.questions[questionIndex] ?? '';
  const base = { auditId: job.auditId, generation: job.generation, questionIndex, provider: provider.id };
  try {
    const answer = await provider.ask({ prompt: question, purpose: MAP_PURPOSE, signal });
    const brands = await extractor.extract(answer.text, { brand: job.brand, competitors: job.competitors, signal });
    const position = positionInList(brands, matcher);
    return {
      ...base,
      ok: true,
      model: answer.model,
      answer: answer.text,
      brands,
      // The list position is the usual evidence; the matcher on the whole text catches a mention the extractor missed.
      named: position !== null || matcher.mentions(answer.text),
      position,
      failureKind: null,
      failureMessage: null,
      answeredAt: now().toISOString(),
    };
  } catch (failure) {
    if (signal.aborted) return undefined;
    return {
      ...base,
      ok: false,
      model: null,
      answer: null,
      brands: [],
      named: false,
      position: null,
      failureKind: failure instanceof ProviderFailure ? failure.kind : 'unexpected',
      failureMessage: describeProviderFailure(failure),
      answeredAt: now().toISOString(),
    };
  }
}

/** A cell that can never be asked: its provider left the lineup (or the lineup changed mode) before it was. */
export function unaskableCell(job: MapJobRecord, questionIndex: number, provider: MapCellRecord['provider'], reason: string, now: () => Date): MapCellRecord {
  return {
    auditId: job.auditId,
    generation: job.generation,
    questionIndex,
    provider,
    ok: false,
    model: null,
    answer: null,
    brands: [],
    named: false,
    position: null,
    failureKind: 'provider_removed',
    failureMessage: reason,
    answeredAt: now().toISOString(),
  };
}
