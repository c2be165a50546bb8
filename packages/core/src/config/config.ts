import { isIP } from 'node:net';
import { z } from 'zod';
import type { ModelPrice } from '../budget/prices.js';
import { PROVIDER_IDS, type ProviderId } from '../providers/types.js';

/** Default model per provider when `*_MODEL` is unset. */
export const DEFAULT_MODELS: Record<ProviderId, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-6',
  gemini: 'gemini-2.5-flash',
};

/**
 * The cheap model each provider answers the extraction second opinion with (EXTRACTION=hybrid) when
 * EXTRACTION_MODEL is unset: the lowest-priced current model that supports JSON-schema output.
 */
export const DEFAULT_EXTRACTION_MODELS: Record<ProviderId, string> = {
  openai: 'gpt-4.1-nano',
  gemini: 'gemini-2.5-flash-lite',
  anthropic: 'claude-haiku-4-5',
};

/** Which provider gives the second opinion when EXTRACTION_PROVIDER is unset: the first with a key, cheapest first. */
export const EXTRACTION_PROVIDER_PREFERENCE: readonly ProviderId[] = ['openai', 'gemini', 'anthropic'];

/** How answers are read into brands (docs/extraction.md, "Rules or hybrid"). */
export type ExtractionSettings =
  | {
      mode: 'rules';
      /** Set when EXTRACTION=hybrid was asked for but cannot apply (demo lineup): the start-up log says so. */
      ignoredHybrid?: string | undefined;
    }
  | {
      mode: 'hybrid';
      /** The live provider that gives the second opinion, and its (cheap) model. */
      provider: ProviderId;
      settings: ProviderSettings;
    };

const ENV_PREFIX: Record<ProviderId, string> = { openai: 'OPENAI', anthropic: 'ANTHROPIC', gemini: 'GEMINI' };

export type ProviderMode = 'live' | 'demo';

export interface ProviderSettings {
  apiKey: string;
  /** Absent means the SDK's own default endpoint. */
  baseURL: string | undefined;
  model: string;
}

/** Express's `trust proxy` value: false ignores X-Forwarded-For entirely. */
export type TrustProxySetting = false | true | number | string[];

export interface Config {
  port: number;
  baseUrl: string;
  dataDir: string;
  providerMode: ProviderMode;
  /** Live settings of the providers whose key is set (empty in demo mode until the lineup starts). */
  providers: Partial<Record<ProviderId, ProviderSettings>>;
  /** Models to ask, per provider, whatever the mode. */
  models: Record<ProviderId, string>;
  monthlyBudgetUsd: number;
  /** Percent of the monthly budget kept for degraded audits (DEGRADED_AUDIT_RESERVE_PERCENT). */
  degradedAuditReservePercent: number;
  /** Operator prices (MODEL_PRICES, USD per million tokens) merged over the budget's default price table. */
  modelPrices: Readonly<Record<string, ModelPrice>>;
  crawlHostMap: ReadonlyMap<string, string>;
  smtpUrl: string | undefined;
  sessionSecret: string | undefined;
  /** DATABASE_URL: set (postgres://…), every port of the store is PostgreSQL; unset, SQLite in DATA_DIR. */
  databaseUrl: string | undefined;
  trustProxy: TrustProxySetting;
  logLevel: LogLevelName;
  providerTimeoutMs: number;
  providerMaxRetries: number;
  providerConcurrency: number;
  /** The shared daily cap of runRepeatedBuyerQuestion across all callers (REPEAT_DAILY_CAP). */
  repeatDailyCap: number;
  /** MCP sessions open at once across all callers (MCP_MAX_SESSIONS). */
  mcpMaxSessions: number;
  /** MCP sessions one caller may hold open at once (MCP_MAX_SESSIONS_PER_CALLER). */
  mcpMaxSessionsPerCaller: number;
  /** An MCP session with no request in flight for this long is closed (MCP_SESSION_IDLE_SECONDS). */
  mcpSessionIdleMs: number;
  /** How long a job lease (map jobs, MCP runs, watch runs) lasts unrenewed (JOB_LEASE_SECONDS): a dead owner's jobs are taken over within it plus a scan. */
  jobLeaseMs: number;
  /** EXTRACTION (with EXTRACTION_PROVIDER, EXTRACTION_MODEL): rules alone, or rules plus a model's second opinion. */
  extraction: ExtractionSettings;
}

/**
 * Calls in flight at once per provider when PROVIDER_CONCURRENCY is unset. An audit asks at most 30 calls per
 * provider (10 questions x 3 samples): 10 slots make that 3 waves, and even with 2 s answers 10 slots are at
 * most 300 requests a minute, inside the entry tiers of OpenAI and Gemini (docs/providers.md, "Concurrency caps").
 */
export const DEFAULT_PROVIDER_CONCURRENCY = 10;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** A configuration problem, worded for the operator who set the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

const optionalText = z.preprocess(blankToUndefined, z.string().optional());

const httpUrl = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => parseHttpUrl(value) !== undefined, { message: `must be an http(s) URL, e.g. https://${what === 'BASE_URL' ? 'visibility.example.com' : 'api.example.com/v1'}` })
      .optional(),
  );

const integerInRange = (minimum: number, maximum: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: `must be a whole number from ${minimum} to ${maximum}` })
      .int({ message: `must be a whole number from ${minimum} to ${maximum}` })
      .min(minimum, { message: `must be a whole number from ${minimum} to ${maximum}` })
      .max(maximum, { message: `must be a whole number from ${minimum} to ${maximum}` })
      .default(fallback),
  );

const environmentSchema = z.object({
  PORT: integerInRange(0, 65_535, 3000),
  BASE_URL: httpUrl('BASE_URL'),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: httpUrl('OPENAI_BASE_URL'),
  OPENAI_MODEL: optionalText,
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: httpUrl('ANTHROPIC_BASE_URL'),
  ANTHROPIC_MODEL: optionalText,
  GEMINI_API_KEY: optionalText,
  GEMINI_BASE_URL: httpUrl('GEMINI_BASE_URL'),
  GEMINI_MODEL: optionalText,
  PROVIDER_MODE: z.preprocess(
    (value) => (typeof blankToUndefined(value) === 'string' ? String(blankToUndefined(value)).toLowerCase() : undefined),
    z.enum(['live', 'demo'], { message: 'must be "live" or "demo"' }).optional(),
  ),
  MONTHLY_BUDGET_USD: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a number of US dollars, e.g. 50' })
      .finite({ message: 'must be a number of US dollars, e.g. 50' })
      .min(0, { message: 'must be zero or more US dollars' })
      .default(50),
  ),
  MODEL_PRICES: optionalText.superRefine((value, context) => {
    for (const problem of modelPriceProblems(value).problems) context.addIssue({ code: 'custom', message: problem });
  }),
  CRAWL_HOST_MAP: optionalText,
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => /^smtps?:\/\/[^\s]+$/i.test(value), { message: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587' })
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(
    blankToUndefined,
    z.string().min(32, { message: 'must be at least 32 characters (or unset it to have one generated in DATA_DIR)' }).optional(),
  ),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((value) => /^postgres(ql)?:\/\/[^\s]+$/i.test(value), { message: 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:pass@db.example.com:5432/visibility' })
      .optional(),
  ),
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.preprocess(
    (value) => (typeof blankToUndefined(value) === 'string' ? String(blankToUndefined(value)).toLowerCase() : undefined),
    z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
  PROVIDER_TIMEOUT_MS: integerInRange(1_000, 600_000, 45_000),
  PROVIDER_MAX_RETRIES: integerInRange(0, 10, 2),
  PROVIDER_CONCURRENCY: integerInRange(1, 64, DEFAULT_PROVIDER_CONCURRENCY),
  DEGRADED_AUDIT_RESERVE_PERCENT: integerInRange(0, 100, 10),
  REPEAT_DAILY_CAP: integerInRange(1, 1_000_000, 200),
  MCP_MAX_SESSIONS: integerInRange(1, 100_000, 1_000),
  MCP_MAX_SESSIONS_PER_CALLER: integerInRange(1, 100_000, 50),
  MCP_SESSION_IDLE_SECONDS: integerInRange(60, 86_400, 600),
  JOB_LEASE_SECONDS: integerInRange(3, 300, 30),
  EXTRACTION: z.preprocess(
    (value) => (typeof blankToUndefined(value) === 'string' ? String(blankToUndefined(value)).toLowerCase() : undefined),
    z.enum(['rules', 'hybrid'], { message: 'must be "rules" or "hybrid"' }).default('rules'),
  ),
  EXTRACTION_PROVIDER: z.preprocess(
    (value) => (typeof blankToUndefined(value) === 'string' ? String(blankToUndefined(value)).toLowerCase() : undefined),
    z.enum(PROVIDER_IDS, { message: `must be one of ${PROVIDER_IDS.join(', ')}` }).optional(),
  ),
  EXTRACTION_MODEL: optionalText,
});

function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Parses `host=origin,host=origin` into a map from lower-cased host to origin. */
export function parseCrawlHostMap(value: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  if (value === undefined) return map;
  for (const entry of value.split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const separator = trimmed.indexOf('=');
    const host = separator === -1 ? '' : trimmed.slice(0, separator).trim().toLowerCase();
    const origin = separator === -1 ? '' : trimmed.slice(separator + 1).trim();
    if (!/^[a-z0-9.-]+(:\d+)?$/.test(host)) {
      throw new ConfigError([`CRAWL_HOST_MAP entry "${trimmed}" must look like host=origin, e.g. acme.example=http://127.0.0.1:4100`]);
    }
    const url = parseHttpUrl(origin);
    if (url === undefined || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
      throw new ConfigError([`CRAWL_HOST_MAP entry "${trimmed}": "${origin}" must be an http(s) origin like http://127.0.0.1:4100`]);
    }
    map.set(host, url.origin);
  }
  return map;
}

const MODEL_PRICES_EXAMPLE = '{"gpt-4.1-mini": {"input": 0.4, "output": 1.6}}';

/** Checks MODEL_PRICES and collects every problem (worded to follow the variable's name). */
function modelPriceProblems(value: string | undefined): { prices: Record<string, ModelPrice>; problems: string[] } {
  const prices: Record<string, ModelPrice> = {};
  if (value === undefined) return { prices, problems: [] };
  // Entries are collected and turned into an object at the end: assigning a "__proto__" key would set a prototype.
  const entries: [string, ModelPrice][] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { prices, problems: [`must be JSON like ${MODEL_PRICES_EXAMPLE} (USD per million tokens): ${reason}`] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { prices, problems: [`must be a JSON object like ${MODEL_PRICES_EXAMPLE} (USD per million tokens)`] };
  }
  const problems: string[] = [];
  for (const [rawKey, entry] of Object.entries(parsed)) {
    const key = rawKey.trim().toLowerCase();
    if (key === '') {
      problems.push('has an empty model id; keys are model ids or prefixes such as "gpt-4.1-mini"');
      continue;
    }
    const fields = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const isPrice = (field: unknown): field is number => typeof field === 'number' && Number.isFinite(field) && field >= 0;
    const extra = fields === undefined ? [] : Object.keys(fields).filter((name) => name !== 'input' && name !== 'output');
    if (fields === undefined || !isPrice(fields['input']) || !isPrice(fields['output']) || extra.length > 0) {
      problems.push(
        `entry "${rawKey}" must be {"input": number, "output": number}, US dollars per million tokens, zero or more` +
          (extra.length > 0 ? ` (unknown field ${extra.map((name) => `"${name}"`).join(', ')})` : ''),
      );
      continue;
    }
    entries.push([key, { input: fields['input'], output: fields['output'] }]);
  }
  return { prices: Object.fromEntries(entries), problems };
}

/** Parses MODEL_PRICES (a JSON object of model id or prefix to USD per million input/output tokens). */
export function parseModelPrices(value: string | undefined): Record<string, ModelPrice> {
  const { prices, problems } = modelPriceProblems(value);
  if (problems.length > 0) throw new ConfigError(problems.map((problem) => `MODEL_PRICES ${problem}`));
  return prices;
}

/** Reads TRUST_PROXY the way Express understands it; unset means "ignore X-Forwarded-For". */
export function parseTrustProxy(value: string | undefined): TrustProxySetting {
  if (value === undefined) return false;
  const lowered = value.toLowerCase();
  if (lowered === 'false' || lowered === '0' || lowered === 'no') return false;
  if (lowered === 'true' || lowered === 'yes') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    const address = entry.split('/')[0] ?? '';
    if (!named.has(entry) && isIP(address) === 0) {
      throw new ConfigError([
        `TRUST_PROXY entry "${entry}" must be true, a hop count, loopback/linklocal/uniquelocal, or an IP address/CIDR`,
      ]);
    }
  }
  return entries;
}

/** Loads and validates the operating contract's environment once, at start. */
export function loadConfig(environment: Readonly<Record<string, string | undefined>>): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`),
    );
  }
  const values = parsed.data;
  const providers: Partial<Record<ProviderId, ProviderSettings>> = {};
  const models = {} as Record<ProviderId, string>;
  for (const id of PROVIDER_IDS) {
    const prefix = ENV_PREFIX[id];
    const model = (values[`${prefix}_MODEL` as keyof typeof values] as string | undefined) ?? DEFAULT_MODELS[id];
    models[id] = model;
    const apiKey = values[`${prefix}_API_KEY` as keyof typeof values] as string | undefined;
    if (apiKey !== undefined) {
      providers[id] = { apiKey, baseURL: values[`${prefix}_BASE_URL` as keyof typeof values] as string | undefined, model };
    }
  }
  const anyKey = Object.keys(providers).length > 0;
  const providerMode: ProviderMode = values.PROVIDER_MODE ?? (anyKey ? 'live' : 'demo');
  if (providerMode === 'live' && !anyKey) {
    throw new ConfigError([
      'PROVIDER_MODE is "live" but no provider key is set: set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or use PROVIDER_MODE=demo',
    ]);
  }
  if (values.DATABASE_URL !== undefined && values.SESSION_SECRET === undefined) {
    // Every instance on one database must sign sessions with the same secret: one generated per DATA_DIR would differ.
    throw new ConfigError([
      'SESSION_SECRET is required when DATABASE_URL is set (PostgreSQL mode): set the same secret of at least 32 characters on every instance',
    ]);
  }
  const extraction = resolveExtraction(values, providerMode, providers);
  const baseUrl = (values.BASE_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    baseUrl,
    dataDir: values.DATA_DIR,
    providerMode,
    providers: providerMode === 'live' ? providers : {},
    models,
    monthlyBudgetUsd: values.MONTHLY_BUDGET_USD,
    degradedAuditReservePercent: values.DEGRADED_AUDIT_RESERVE_PERCENT,
    modelPrices: parseModelPrices(values.MODEL_PRICES),
    crawlHostMap: parseCrawlHostMap(values.CRAWL_HOST_MAP),
    smtpUrl: values.SMTP_URL,
    sessionSecret: values.SESSION_SECRET,
    databaseUrl: values.DATABASE_URL,
    trustProxy: parseTrustProxy(values.TRUST_PROXY),
    logLevel: values.LOG_LEVEL,
    providerTimeoutMs: values.PROVIDER_TIMEOUT_MS,
    providerMaxRetries: values.PROVIDER_MAX_RETRIES,
    providerConcurrency: values.PROVIDER_CONCURRENCY,
    repeatDailyCap: values.REPEAT_DAILY_CAP,
    mcpMaxSessions: values.MCP_MAX_SESSIONS,
    mcpMaxSessionsPerCaller: values.MCP_MAX_SESSIONS_PER_CALLER,
    mcpSessionIdleMs: values.MCP_SESSION_IDLE_SECONDS * 1000,
    jobLeaseMs: values.JOB_LEASE_SECONDS * 1000,
    extraction,
  };
}

/**
 * EXTRACTION=hybrid needs a live provider: in demo mode it is ignored (and said so at start), since a
 * simulated "model opinion" would pass the simulator's world off as a model's. A named
 * EXTRACTION_PROVIDER without a key is a mistake worth stopping for.
 */
function resolveExtraction(
  values: { EXTRACTION: 'rules' | 'hybrid'; EXTRACTION_PROVIDER?: ProviderId | undefined; EXTRACTION_MODEL?: string | undefined },
  providerMode: ProviderMode,
  providers: Partial<Record<ProviderId, ProviderSettings>>,
): ExtractionSettings {
  if (values.EXTRACTION === 'rules') return { mode: 'rules' };
  if (providerMode === 'demo') {
    return {
      mode: 'rules',
      ignoredHybrid: 'EXTRACTION=hybrid is ignored on the demo lineup (no provider key is live), so the rules alone read the answers',
    };
  }
  const provider = values.EXTRACTION_PROVIDER ?? EXTRACTION_PROVIDER_PREFERENCE.find((id) => providers[id] !== undefined);
  const live = provider === undefined ? undefined : providers[provider];
  if (provider === undefined || live === undefined) {
    throw new ConfigError([
      `EXTRACTION_PROVIDER is "${values.EXTRACTION_PROVIDER ?? ''}" but its key is not set: set ${ENV_PREFIX[values.EXTRACTION_PROVIDER ?? 'openai']}_API_KEY, name a provider whose key is set, or unset EXTRACTION_PROVIDER`,
    ]);
  }
  // Behind a custom base URL (a gateway, Ollama) the vendor's cheap model may not exist: the configured one does.
  const model = values.EXTRACTION_MODEL ?? (live.baseURL === undefined ? DEFAULT_EXTRACTION_MODELS[provider] : live.model);
  return { mode: 'hybrid', provider, settings: { ...live, model } };
}
