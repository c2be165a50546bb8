// Tracking a brand over time: a watch re-asks the same buyer questions on a schedule; each run is a point
// with intervals, and a change is reported only when the data say it is real (docs/tracking.md).

import type { ProviderId } from '../providers/types.js';

export const WATCH_SCHEDULES = ['daily', 'weekly'] as const;
export type WatchSchedule = (typeof WATCH_SCHEDULES)[number];

/** At most this many questions per watch. */
export const MAX_WATCH_QUESTIONS = 20;
/** Samples per question and provider: 1 to 5, default 3 (the audit's). */
export const MIN_WATCH_SAMPLES = 1;
export const MAX_WATCH_SAMPLES = 5;
export const DEFAULT_WATCH_SAMPLES = 3;
/** Watches one account may keep. */
export const MAX_WATCHES_PER_OWNER = 25;

export interface WatchAlert {
  /** Mail the owner when a change is detected (default true). */
  email: boolean;
  /** POST each change here (public http(s) only). */
  webhookUrl: string | null;
}

/** A watch as the API shows it (never the webhook secret). */
export interface Watch {
  id: string;
  brand: string;
  category: string;
  website: string | null;
  questions: string[];
  providers: ProviderId[];
  samples: number;
  schedule: WatchSchedule;
  paused: boolean;
  nextRunAt: string;
  createdAt: string;
  alert: WatchAlert;
}

export type WatchRunStatus = 'running' | 'complete' | 'skipped' | 'failed';
export type WatchRunTrigger = 'schedule' | 'manual';

/** One provider's numbers in one run. */
export interface ProviderPoint {
  model: string | null;
  /** Answers that named the brand ÷ answers received. */
  mentionRate: number | null;
  /** The 95% Wilson interval of the mention rate. */
  low: number;
  high: number;
  /** Answers received (failed calls are not answers). */
  answers: number;
  named: number;
  failed: number;
  /** Mean 1-based position of the brand in the answers that listed it; null when never listed. */
  rank: number | null;
}

export interface CompetitorMentions {
  name: string;
  /** Answers naming it (each answer counts once). */
  mentions: number;
}

/** One run of a watch, as the history lists it. */
export interface HistoryPoint {
  runId: string;
  at: string;
  mode: string;
  providers: Partial<Record<ProviderId, ProviderPoint>>;
  overall: { mentionRate: number | null; low: number; high: number; answers: number; named: number };
  /** The brand's mentions ÷ all brand mentions (its own and every competitor's); null when no brand was named. */
  shareOfVoice: number | null;
  topCompetitors: CompetitorMentions[];
  costUsd: number;
}

/** What the store keeps of a finished run: the public point plus every competitor's count (change detection). */
export interface StoredPoint extends HistoryPoint {
  competitors: CompetitorMentions[];
}

export type ChangeKind = 'mention_rate' | 'new_competitor' | 'dropped_out';

/** A change the data say is real (docs/tracking.md): the latest run against the runs before it. */
export interface WatchChange {
  at: string;
  runId: string;
  /** A provider id, or "overall" (all providers pooled). */
  provider: ProviderId | 'overall';
  kind: ChangeKind;
  /** Present for new_competitor and for a competitor's dropped_out; absent when the change is the brand's own. */
  competitor?: string;
  /** The rate in the earlier runs (pooled) and in the latest run. */
  from: number;
  to: number;
  /** to − from: the effect size, in proportion points. */
  effect: number;
  /** The 95% Wilson intervals of both. */
  fromInterval: [number, number];
  toInterval: [number, number];
  /** Two-sided p-value of the two-proportion z-test. */
  pValue: number;
  /** The level each test had to pass: 0.05 divided by (the run's tests × 30 runs), a Bonferroni correction. */
  threshold: number;
  direction: 'up' | 'down';
  /** Answers behind each side. */
  baselineAnswers: number;
  latestAnswers: number;
  baselineRuns: number;
}

/** A run as the API shows it. */
export interface WatchRun {
  id: string;
  watchId: string;
  trigger: WatchRunTrigger;
  status: WatchRunStatus;
  mode: string;
  createdAt: string;
  completedAt: string | null;
  /** Why a run was skipped or failed. */
  reason: string | null;
  progress: { completed: number; total: number };
  point: HistoryPoint | null;
  changes: WatchChange[];
}
