// What an alert says: the mail to the owner and the webhook's JSON body. Brand, category and competitor
// names come from users and model answers: the HTML part escapes them.

import { escapeHtml } from '../text/escape.js';
import type { WatchRecord } from '../store/watch-repository.js';
import type { StoredPoint, WatchChange } from './types.js';

/** The watch's page on the site. */
export function watchPageUrl(baseUrl: string, watchId: string): string {
  return `${baseUrl}/watches/${watchId}`;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** One change in one sentence. */
export function describeChange(change: WatchChange, brand: string): string {
  const where = change.provider === 'overall' ? 'across all providers' : `on ${change.provider}`;
  const evidence = `(95% intervals ${percent(change.fromInterval[0])}–${percent(change.fromInterval[1])} before, ${percent(change.toInterval[0])}–${percent(change.toInterval[1])} now; ${change.pValue < 0.0001 ? 'p < 0.0001' : `p = ${change.pValue}`})`;
  if (change.kind === 'new_competitor') {
    return `New competitor ${change.competitor ?? ''} ${where}: named in ${percent(change.to)} of answers, never in the runs before ${evidence}.`;
  }
  if (change.kind === 'dropped_out') {
    const who = change.competitor ?? brand;
    return `${who} dropped out ${where}: named in ${percent(change.from)} of answers before, none now ${evidence}.`;
  }
  return `${brand} ${change.direction === 'up' ? 'rose' : 'fell'} ${where}: named in ${percent(change.to)} of answers, ${change.direction === 'up' ? 'up' : 'down'} from ${percent(change.from)} ${evidence}.`;
}

/** The alert mail: subject, text and an escaped HTML part. */
export function buildAlertMail(baseUrl: string, watch: WatchRecord, point: StoredPoint, changes: readonly WatchChange[]): { subject: string; text: string; html: string } {
  const url = watchPageUrl(baseUrl, watch.id);
  const lines = changes.map((change) => describeChange(change, watch.brand));
  const subject = `${watch.brand}: ${changes.length === 1 ? 'a real change' : `${changes.length} real changes`} in what AI assistants answer`.slice(0, 200);
  const demo = point.mode === 'demo' ? '\nThese are demo answers from the built-in simulator, not what real models said.\n' : '';
  const text = [
    `Your watch of ${watch.brand} (${watch.category}) measured a change that is unlikely to be noise.`,
    demo,
    ...lines.map((line) => `- ${line}`),
    '',
    `Overall this run: named in ${point.overall.mentionRate === null ? 'no answer' : percent(point.overall.mentionRate)} of ${point.overall.answers} answers.`,
    `Trend, runs and competitors: ${url}`,
  ].join('\n');
  const html = [
    `<p>Your watch of <strong>${escapeHtml(watch.brand)}</strong> (${escapeHtml(watch.category)}) measured a change that is unlikely to be noise.</p>`,
    point.mode === 'demo' ? '<p>These are demo answers from the built-in simulator, not what real models said.</p>' : '',
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p><a href="${escapeHtml(url)}">Trend, runs and competitors</a></p>`,
  ].join('\n');
  return { subject, text, html };
}

/** The webhook's JSON body (X-Visibility-Event: visibility.change). */
export function buildWebhookPayload(baseUrl: string, watch: WatchRecord, point: StoredPoint, changes: readonly WatchChange[]): Record<string, unknown> {
  return {
    event: 'visibility.change',
    watchId: watch.id,
    brand: watch.brand,
    category: watch.category,
    runId: point.runId,
    at: point.at,
    mode: point.mode,
    overall: point.overall,
    changes,
    summary: changes.map((change) => describeChange(change, watch.brand)),
    url: watchPageUrl(baseUrl, watch.id),
  };
}
