// The readable text of each tool answer. It says the same as the structured content, in the order a
// person (or a model relaying to one) needs it: state, the main figures, the caveats, then the links.

import { DEFAULT_WAIT_SECONDS } from './limits.js';
import type { RunOutput } from './run-output.js';

/** The text of a get_visibility_check answer. */
export function runText(run: RunOutput): string {
  const lines = [`Visibility check ${run.runId} for ${run.brand} (${run.domain}, "${run.category}"): ${run.status}.`];
  switch (run.status) {
    case 'queued':
    case 'auditing':
    case 'mapping':
      lines.push(
        `In progress${run.progress === undefined ? '' : ` (${run.progress.percent}%: ${run.progress.message})`}. Buyer questions are asked live to each AI provider, so a check takes about a minute.`,
        `Call get_visibility_check again with runId "${run.runId}": it waits up to ${DEFAULT_WAIT_SECONDS} seconds for the result by default.`,
      );
      lines.push(...run.caveats.map((caveat) => `Note: ${caveat}`));
      break;
    case 'failed':
      lines.push(`It failed (${run.error?.code ?? 'server_error'}): ${run.error?.message ?? 'no reason was recorded.'}`);
      lines.push(...run.caveats.filter((caveat) => !caveat.startsWith('The website ')).map((caveat) => `Note: ${caveat}`));
      lines.push("A failed check does not use the domain's free measurement: call start_visibility_check again to retry.");
      break;
    case 'done':
      lines.push(...resultLines(run));
      break;
  }
  return lines.join('\n');
}

function resultLines(run: RunOutput): string[] {
  const lines: string[] = [];
  if (run.measuredAt !== undefined) lines.push(`Measured on ${run.measuredAt}.`);
  const verdict = run.verdict;
  if (verdict !== undefined) {
    if (verdict.measured && verdict.score !== null) {
      const interval = verdict.scoreInterval === null ? '' : ` (95% interval ${Math.round(verdict.scoreInterval[0] ?? 0)}-${Math.round(verdict.scoreInterval[1] ?? 0)})`;
      lines.push(`Verdict: ${verdict.risk} risk. Visibility score ${Math.round(verdict.score)}/100${interval}, ${verdict.confidence} confidence.`);
    } else {
      lines.push('Verdict: not measured.');
    }
  }
  if ((run.buyerQuestionsAsked ?? 0) > 0) {
    lines.push(
      `Buyer questions won: ${run.buyerQuestionsWon ?? 0} of ${run.buyerQuestionsTotal ?? 0} (a question is won when at least one AI assistant that answered named the brand).`,
    );
    const lost = (run.buyerQuestions ?? []).filter((question) => !question.won && question.failedProviders.length < 3).slice(0, 3);
    if (lost.length > 0) lines.push(`Not named for: ${lost.map((question) => `"${question.question}"`).join('; ')}.`);
  } else if (run.mapMissingReason !== undefined) {
    lines.push(`No buyer-question map: ${run.mapMissingReason}`);
  }
  const competitors = run.competitorsNamedInstead ?? [];
  lines.push(
    `Named instead: ${competitors.length === 0 ? 'no competitor was named instead of the brand' : competitors.map((competitor) => `${competitor.name} (${competitor.namedInstead})`).join(', ')}.`,
  );
  const answered = run.providersAnswered ?? [];
  lines.push(`Providers that answered: ${answered.length === 0 ? 'none' : answered.map((provider) => `${provider.provider} (${provider.model})`).join(', ')}.`);
  for (const caveat of run.caveats) lines.push(`Note: ${caveat}`);
  if (run.reportUrl !== undefined) lines.push(`Full report (a private link: share it only with the user): ${run.reportUrl}`);
  if (run.buyerQuestionMapUrl !== undefined) lines.push(`Every measured answer, public: ${run.buyerQuestionMapUrl}`);
  lines.push(`Next free check for ${run.domain}: ${run.quotaRenewsAt}.`);
  return lines;
}
