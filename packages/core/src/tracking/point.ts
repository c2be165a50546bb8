// One run's answers reduced to a history point: per provider and overall, the mention rate with its 95%
// Wilson interval, the mean rank, the competitors (grouped and filtered exactly as the audit does) and the cost.

import { wilsonInterval } from '../audit/statistics.js';
import { allCompetitorMentions, rankCompetitors, shareOfVoice, tallyCompetitors } from '../audit/competitors.js';
import { brandMatcherFor, type ProviderSamples } from '../audit/sampling.js';
import type { ProviderId } from '../providers/types.js';
import type { WatchAnswerRecord } from '../store/watch-repository.js';
import type { ProviderPoint, StoredPoint } from './types.js';

/** Competitors the public point lists. */
export const TOP_COMPETITORS = 5;

export interface PointInput {
  runId: string;
  at: string;
  mode: string;
  brand: string;
  category: string;
  website: string | null;
  providers: readonly ProviderId[];
  answers: readonly WatchAnswerRecord[];
}

/** Builds the stored point of a finished run from its answers. */
export function buildPoint(input: PointInput): StoredPoint {
  const samples: ProviderSamples[] = input.providers.map((provider) => ({
    provider,
    model: '',
    calls: input.answers
      .filter((answer) => answer.provider === provider)
      .map((answer) => ({
        questionIndex: answer.questionIndex,
        sampleIndex: answer.sampleIndex,
        ok: answer.ok,
        answer: answer.answer,
        model: answer.model,
        brands: answer.brands,
        named: answer.named,
        position: answer.position,
      })),
  }));
  const providers: Partial<Record<ProviderId, ProviderPoint>> = {};
  let named = 0;
  let answered = 0;
  for (const { provider, calls } of samples) {
    const ok = calls.filter((call) => call.ok);
    const hits = ok.filter((call) => call.named);
    const positions = hits.map((call) => call.position).filter((position): position is number => position !== null);
    const [low, high] = wilsonInterval(hits.length, ok.length);
    providers[provider] = {
      model: ok.find((call) => call.model !== null)?.model ?? null,
      mentionRate: ok.length === 0 ? null : round(hits.length / ok.length),
      low: round(low),
      high: round(high),
      answers: ok.length,
      named: hits.length,
      failed: calls.length - ok.length,
      rank: positions.length === 0 ? null : round(positions.reduce((sum, position) => sum + position, 0) / positions.length),
    };
    named += hits.length;
    answered += ok.length;
  }
  const [low, high] = wilsonInterval(named, answered);
  const tally = tallyCompetitors(samples, brandMatcherFor(input.brand, input.website ?? undefined), [], input.category);
  const competitors = rankCompetitors(tally, named).map((entry) => ({ name: entry.name, mentions: entry.mentions })).filter((entry) => entry.mentions > 0);
  const costMicroUsd = input.answers.reduce((sum, answer) => sum + answer.costMicroUsd, 0);
  return {
    runId: input.runId,
    at: input.at,
    mode: input.mode,
    providers,
    overall: { mentionRate: answered === 0 ? null : round(named / answered), low: round(low), high: round(high), answers: answered, named },
    shareOfVoice: shareOfVoice(named, named, allCompetitorMentions(tally)),
    topCompetitors: [...competitors].sort((left, right) => right.mentions - left.mentions).slice(0, TOP_COMPETITORS),
    costUsd: costMicroUsd / 1_000_000,
    competitors,
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
