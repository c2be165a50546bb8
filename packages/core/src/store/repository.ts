import { SqlRepository } from './sql-repository.js';
import type { ProviderFailureKind, ProviderId } from '../providers/types.js';

/** One provider call as the store keeps it. */
export interface ProviderCallRecord {
  provider: ProviderId;
  model: string;
  /** What the call was for, e.g. "repeat", "check.recognition", "audit.buyer_question". */
  purpose: string;
  outcome: 'ok' | 'failed';
  failureKind?: ProviderFailureKind | undefined;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  attempts: number;
  createdAt: string;
}

export interface ProviderCallTotals {
  calls: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
}

/** The one place that owns SQL; everything else asks it by name. */
export class Repository extends SqlRepository {
  /** Reads a value kept in app_meta. */
  getMeta(key: string): string | undefined {
    const row = this.statement('SELECT value FROM app_meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  /** Writes (or replaces) a value in app_meta. */
  setMeta(key: string, value: string, now: Date = new Date()): void {
    this.statement(
      'INSERT INTO app_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    ).run(key, value, now.toISOString());
  }

  /** Appends one provider call to the log. */
  recordProviderCall(call: ProviderCallRecord): void {
    this.statement(`
      INSERT INTO provider_calls
        (provider, model, purpose, outcome, failure_kind, input_tokens, output_tokens, latency_ms, attempts, created_at)
      VALUES
        (@provider, @model, @purpose, @outcome, @failureKind, @inputTokens, @outputTokens, @latencyMs, @attempts, @createdAt)
    `).run({ ...call, failureKind: call.failureKind ?? null });
  }

  /** Totals of the provider calls made since a moment (e.g. the start of the month). */
  providerCallTotals(since: Date): ProviderCallTotals {
    return this.statement(`
      SELECT COUNT(*) AS calls,
             COALESCE(SUM(outcome = 'failed'), 0) AS failed,
             COALESCE(SUM(input_tokens), 0) AS inputTokens,
             COALESCE(SUM(output_tokens), 0) AS outputTokens
      FROM provider_calls WHERE created_at >= ?
    `).get(since.toISOString()) as ProviderCallTotals;
  }
}
