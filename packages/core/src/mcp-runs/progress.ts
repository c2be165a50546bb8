// A run's progress on one 0-100 scale, so a client's progress bar moves steadily through stages of very
// different lengths: the crawl and the questions are quick, the answers and the map take the time.

import type { StartAuditProgress } from '../operations/start-visibility-audit.js';
import type { BuyerQuestionMapProgress } from '../map/types.js';
import type { VisibilityRunProgress, VisibilityRunStage } from './types.js';

/** Where each stage starts and ends on the 0-100 scale. */
const STAGE_SPAN: Readonly<Record<VisibilityRunStage, readonly [start: number, end: number]>> = {
  queued: [0, 0],
  crawl: [0, 5],
  questions: [5, 8],
  answers: [8, 60],
  findings: [60, 62],
  map: [62, 99],
  done: [100, 100],
  failed: [100, 100],
};

/** The run's progress for one step of a stage. */
export function stageProgress(stage: VisibilityRunStage, completed: number, total: number, message: string): VisibilityRunProgress {
  const [start, end] = STAGE_SPAN[stage];
  const share = total > 0 ? Math.min(1, Math.max(0, completed / total)) : 0;
  return { stage, completed, total, percent: Math.round(start + (end - start) * share), message };
}

/** The run's progress for an audit event (crawl, questions, answers, findings). */
export function auditStageProgress(event: StartAuditProgress): VisibilityRunProgress {
  switch (event.stage) {
    case 'crawl':
      return stageProgress('crawl', event.completed, event.total, event.label);
    case 'questions':
      return stageProgress('questions', event.completed, event.total, event.label);
    case 'answers':
      return stageProgress('answers', event.completed, event.total, `answers ${event.completed}/${event.total}`);
    case 'findings':
      return stageProgress('findings', event.completed, event.total, 'scoring the answers');
  }
}

/** The run's progress while the buyer-question map is measured (cells stored out of cells asked). */
export function mapStageProgress(progress: BuyerQuestionMapProgress): VisibilityRunProgress {
  return stageProgress('map', progress.completed, progress.total, `buyer-question map ${progress.completed}/${progress.total}`);
}
