// Validation of the watch bodies: each refusal is a 400 with a stable code whose message names the field.

import { normalizeWebsite } from '../crawl/normalize-website.js';
import type { CrawlHostMap } from '../crawl/host-map.js';
import { PROVIDER_IDS, type ProviderId } from '../providers/types.js';
import { invalidField, TrackingError } from './errors.js';
import { DEFAULT_WATCH_SAMPLES, MAX_WATCH_QUESTIONS, MAX_WATCH_SAMPLES, MIN_WATCH_SAMPLES, WATCH_SCHEDULES, type WatchSchedule } from './types.js';
import { checkWebhookUrl } from './webhook.js';

/** The audit's field bounds (spec), and the question bound of the repeat tool. */
const MAX_BRAND = 80;
const MAX_CATEGORY = 120;
const MAX_WEBSITE = 160;
const MAX_QUESTION = 200;

export interface ValidWatchRequest {
  brand: string;
  category: string;
  website: string | null;
  questions: string[] | undefined;
  providers: ProviderId[] | undefined;
  schedule: WatchSchedule;
  samples: number;
  alert: { email: boolean; webhookUrl: string | null };
}

export interface ValidWatchPatch {
  schedule?: WatchSchedule;
  paused?: boolean;
  alert?: { email?: boolean; webhookUrl?: string | null };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireObject(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new TrackingError('invalid_body', 'The body must be a JSON object.', 'Send {"brand", "category", "schedule", …} as JSON.');
  return body;
}

function text(body: Record<string, unknown>, field: string, max: number, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalidField('missing_required', field, 'is required.', `Send \`${field}\` as a string of 1 to ${max} characters.`);
    return undefined;
  }
  if (typeof value !== 'string') throw invalidField('invalid_body', field, 'must be a string.', `Send \`${field}\` as a string of 1 to ${max} characters.`);
  const trimmed = value.replace(/\s+/g, ' ').trim();
  if (trimmed === '') {
    if (required) throw invalidField('missing_required', field, 'is empty.', `Send \`${field}\` as a string of 1 to ${max} characters.`);
    return undefined;
  }
  if (trimmed.length > max) throw invalidField('invalid_body', field, `is longer than ${max} characters.`, `Shorten \`${field}\` to at most ${max} characters.`);
  return trimmed;
}

function schedule(value: unknown): WatchSchedule {
  if (typeof value === 'string' && (WATCH_SCHEDULES as readonly string[]).includes(value)) return value as WatchSchedule;
  throw invalidField('invalid_schedule', 'schedule', `must be "daily" or "weekly"${value === undefined ? ' and is required' : ''}.`, 'Send "schedule": "daily" or "weekly".');
}

function webhook(value: unknown, hostMap: CrawlHostMap | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalidField('invalid_webhook', 'alert.webhookUrl', 'must be a URL string.', 'Send a public https:// URL, or leave it out.');
  const checked = checkWebhookUrl(value.trim(), hostMap);
  if (!checked.ok) {
    throw invalidField('invalid_webhook', 'alert.webhookUrl', `is refused: ${checked.reason}.`, 'Use a public http(s) URL; private, loopback and link-local addresses are never called.');
  }
  return checked.url;
}

function alert(value: unknown, hostMap: CrawlHostMap | undefined, partial: boolean): { email?: boolean; webhookUrl?: string | null } {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalidField('invalid_body', 'alert', 'must be an object.', 'Send {"email": true, "webhookUrl": "https://…"}.');
  const result: { email?: boolean; webhookUrl?: string | null } = {};
  if (value.email !== undefined) {
    if (typeof value.email !== 'boolean') throw invalidField('invalid_body', 'alert.email', 'must be true or false.', 'Send "email": true or false.');
    result.email = value.email;
  }
  if (value.webhookUrl !== undefined || !partial) result.webhookUrl = webhook(value.webhookUrl, hostMap);
  return result;
}

/** Checks a POST /api/watches body. */
export function parseWatchRequest(body: unknown, options: { hostMap?: CrawlHostMap | undefined; enabledProviders: readonly ProviderId[] }): ValidWatchRequest {
  const object = requireObject(body);
  const brand = text(object, 'brand', MAX_BRAND, true) as string;
  const category = text(object, 'category', MAX_CATEGORY, true) as string;
  const websiteText = text(object, 'website', MAX_WEBSITE, false);
  let website: string | null = null;
  if (websiteText !== undefined) {
    const normalized = normalizeWebsite(websiteText, { hostMap: options.hostMap });
    if (!normalized.ok) throw invalidField('invalid_website', 'website', `cannot be used: ${normalized.reason}.`, 'Send the brand site as a public domain or http(s) URL, or leave it out.');
    website = normalized.url;
  }
  let questions: string[] | undefined;
  if (object.questions !== undefined && object.questions !== null) {
    if (!Array.isArray(object.questions) || object.questions.some((question) => typeof question !== 'string')) {
      throw invalidField('invalid_questions', 'questions', 'must be an array of strings.', `Send 1 to ${MAX_WATCH_QUESTIONS} buyer questions, or leave it out to use the audit's.`);
    }
    questions = [...new Set((object.questions as string[]).map((question) => question.replace(/\s+/g, ' ').trim()).filter((question) => question !== ''))];
    if (questions.length === 0) throw invalidField('invalid_questions', 'questions', 'has no question in it.', `Send 1 to ${MAX_WATCH_QUESTIONS} buyer questions, or leave it out.`);
    if (questions.length > MAX_WATCH_QUESTIONS) {
      throw invalidField('too_many_questions', 'questions', `has ${questions.length} questions; at most ${MAX_WATCH_QUESTIONS} are allowed.`, `Keep the ${MAX_WATCH_QUESTIONS} questions that matter most.`);
    }
    const long = questions.find((question) => question.length > MAX_QUESTION);
    if (long !== undefined) throw invalidField('invalid_questions', 'questions', `has a question longer than ${MAX_QUESTION} characters.`, 'Shorten it; buyers ask short questions.');
  }
  let providers: ProviderId[] | undefined;
  if (object.providers !== undefined && object.providers !== null) {
    const list = object.providers;
    if (!Array.isArray(list) || list.length === 0 || list.some((entry) => typeof entry !== 'string' || !(PROVIDER_IDS as readonly string[]).includes(entry))) {
      throw invalidField('invalid_providers', 'providers', `must be a non-empty array of ${PROVIDER_IDS.join(', ')}.`, 'Leave it out to use every configured provider.');
    }
    providers = [...new Set(list as ProviderId[])];
    const off = providers.filter((provider) => !options.enabledProviders.includes(provider));
    if (off.length > 0) {
      throw invalidField('invalid_providers', 'providers', `names ${off.join(', ')}, not configured on this service.`, `Configured: ${options.enabledProviders.join(', ')}.`);
    }
  }
  let samples = DEFAULT_WATCH_SAMPLES;
  if (object.samples !== undefined && object.samples !== null) {
    if (typeof object.samples !== 'number' || !Number.isInteger(object.samples) || object.samples < MIN_WATCH_SAMPLES || object.samples > MAX_WATCH_SAMPLES) {
      throw invalidField('invalid_samples', 'samples', `must be a whole number from ${MIN_WATCH_SAMPLES} to ${MAX_WATCH_SAMPLES}.`, `Leave it out for ${DEFAULT_WATCH_SAMPLES}.`);
    }
    samples = object.samples;
  }
  const alerts = alert(object.alert, options.hostMap, false);
  return {
    brand,
    category,
    website,
    questions,
    providers,
    schedule: schedule(object.schedule),
    samples,
    alert: { email: alerts.email ?? true, webhookUrl: alerts.webhookUrl ?? null },
  };
}

/** Checks a PATCH /api/watches/{id} body: schedule, alert and paused. */
export function parseWatchPatch(body: unknown, options: { hostMap?: CrawlHostMap | undefined }): ValidWatchPatch {
  const object = requireObject(body);
  const unknown = Object.keys(object).filter((key) => !['schedule', 'alert', 'paused'].includes(key));
  if (unknown.length > 0) {
    throw invalidField('invalid_body', unknown[0] as string, 'cannot be changed.', 'A watch changes `schedule`, `alert` and `paused`; create a new watch for other questions.');
  }
  const patch: ValidWatchPatch = {};
  if (object.schedule !== undefined) patch.schedule = schedule(object.schedule);
  if (object.paused !== undefined) {
    if (typeof object.paused !== 'boolean') throw invalidField('invalid_body', 'paused', 'must be true or false.', 'Send "paused": true to stop the schedule, false to resume it.');
    patch.paused = object.paused;
  }
  if (object.alert !== undefined) patch.alert = alert(object.alert, options.hostMap, true);
  return patch;
}
