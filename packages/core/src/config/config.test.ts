import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseCrawlHostMap, parseTrustProxy } from './config.js';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to the demo lineup on port 3000 when no key is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe('./data');
    expect(config.providerMode).toBe('demo');
    expect(config.providers).toEqual({});
    expect(config.trustProxy).toBe(false);
    expect(config.crawlHostMap.size).toBe(0);
    expect(config.providerConcurrency).toBe(10);
    expect(config.degradedAuditReservePercent).toBe(10);
  });

  it('turns live and enables exactly the providers whose key is set', () => {
    const config = loadConfig({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3.1',
      GEMINI_API_KEY: '  ',
    });
    expect(config.providerMode).toBe('live');
    expect(Object.keys(config.providers)).toEqual(['openai']);
    expect(config.providers.openai).toEqual({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
  });

  it('derives BASE_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://visibility.example/' }).baseUrl).toBe('https://visibility.example');
  });

  it('honours PROVIDER_MODE=demo even when keys are set', () => {
    const config = loadConfig({ PROVIDER_MODE: 'demo', ANTHROPIC_API_KEY: 'k' });
    expect(config.providerMode).toBe('demo');
    expect(config.providers).toEqual({});
  });

  it('names every bad variable with a clear message', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      BASE_URL: 'ftp://x',
      MONTHLY_BUDGET_USD: '-3',
      PROVIDER_MODE: 'sometimes',
      SMTP_URL: 'mail.example.com',
      SESSION_SECRET: 'short',
      DEGRADED_AUDIT_RESERVE_PERCENT: '120',
    });
    const text = problems.join('\n');
    for (const name of ['PORT', 'BASE_URL', 'MONTHLY_BUDGET_USD', 'PROVIDER_MODE', 'SMTP_URL', 'SESSION_SECRET', 'DEGRADED_AUDIT_RESERVE_PERCENT']) {
      expect(text).toContain(name);
    }
    expect(problems).toHaveLength(7);
  });

  it('reads the MCP session caps, with 1,000 in all, 50 per caller and 10 minutes idle by default', () => {
    expect(loadConfig({})).toMatchObject({ mcpMaxSessions: 1_000, mcpMaxSessionsPerCaller: 50, mcpSessionIdleMs: 600_000 });
    expect(loadConfig({ MCP_MAX_SESSIONS: '60', MCP_MAX_SESSIONS_PER_CALLER: '5', MCP_SESSION_IDLE_SECONDS: '120' })).toMatchObject({
      mcpMaxSessions: 60,
      mcpMaxSessionsPerCaller: 5,
      mcpSessionIdleMs: 120_000,
    });
    const problems = problemsOf({ MCP_MAX_SESSIONS: '0', MCP_SESSION_IDLE_SECONDS: '5' }).join('\n');
    expect(problems).toMatch(/MCP_MAX_SESSIONS.*from 1 to 100000/);
    expect(problems).toMatch(/MCP_SESSION_IDLE_SECONDS.*from 60 to 86400/);
  });

  it('reads JOB_LEASE_SECONDS, 30 s by default, from 3 to 300', () => {
    expect(loadConfig({}).jobLeaseMs).toBe(30_000);
    expect(loadConfig({ JOB_LEASE_SECONDS: '6' }).jobLeaseMs).toBe(6_000);
    expect(problemsOf({ JOB_LEASE_SECONDS: '1' }).join('\n')).toMatch(/JOB_LEASE_SECONDS.*from 3 to 300/);
  });

  it('refuses live mode without a key', () => {
    expect(problemsOf({ PROVIDER_MODE: 'live' })[0]).toMatch(/no provider key is set/);
  });

  it('keeps SQLite in DATA_DIR without DATABASE_URL, and reads a postgres:// DATABASE_URL', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeUndefined();
    const secret = 's'.repeat(32);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/v', SESSION_SECRET: secret }).databaseUrl).toBe('postgres://u:p@db:5432/v');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/v', SESSION_SECRET: secret }).databaseUrl).toBe('postgresql://db/v');
    expect(problemsOf({ DATABASE_URL: 'mysql://db/v', SESSION_SECRET: secret })[0]).toMatch(/^DATABASE_URL must be a postgres:\/\//);
  });

  it('refuses PostgreSQL mode without SESSION_SECRET, naming it', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://u:p@db:5432/v' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SESSION_SECRET is required when DATABASE_URL is set/);
  });
});

describe('EXTRACTION', () => {
  it('defaults to the rules, with or without keys', () => {
    expect(loadConfig({}).extraction).toEqual({ mode: 'rules' });
    expect(loadConfig({ OPENAI_API_KEY: 'sk-1' }).extraction).toEqual({ mode: 'rules' });
  });

  it('hybrid asks the cheapest keyed provider its cheap model, or the one named', () => {
    expect(loadConfig({ EXTRACTION: 'hybrid', ANTHROPIC_API_KEY: 'sk-ant', GEMINI_API_KEY: 'g-1' }).extraction).toEqual({
      mode: 'hybrid',
      provider: 'gemini',
      settings: { apiKey: 'g-1', baseURL: undefined, model: 'gemini-2.5-flash-lite' },
    });
    const named = loadConfig({ EXTRACTION: 'HYBRID', EXTRACTION_PROVIDER: 'anthropic', EXTRACTION_MODEL: 'claude-3-haiku', ANTHROPIC_API_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-1' });
    expect(named.extraction).toEqual({ mode: 'hybrid', provider: 'anthropic', settings: { apiKey: 'sk-ant', baseURL: undefined, model: 'claude-3-haiku' } });
  });

  it('behind a custom base URL, hybrid uses the configured model rather than a vendor model the server may not have', () => {
    const config = loadConfig({ EXTRACTION: 'hybrid', OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'llama3.1' });
    expect(config.extraction).toEqual({ mode: 'hybrid', provider: 'openai', settings: { apiKey: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' } });
  });

  it('is ignored, with a reason for the start-up log, on the demo lineup', () => {
    for (const environment of [{ EXTRACTION: 'hybrid' }, { EXTRACTION: 'hybrid', OPENAI_API_KEY: 'sk-1', PROVIDER_MODE: 'demo' }]) {
      const extraction = loadConfig(environment).extraction;
      expect(extraction.mode).toBe('rules');
      expect(extraction.mode === 'rules' ? extraction.ignoredHybrid : undefined).toMatch(/demo lineup/);
    }
  });

  it('refuses unknown values and a named provider without a key', () => {
    expect(problemsOf({ EXTRACTION: 'model' })).toEqual(['EXTRACTION must be "rules" or "hybrid"']);
    expect(problemsOf({ EXTRACTION_PROVIDER: 'mistral' })).toEqual(['EXTRACTION_PROVIDER must be one of openai, gemini, anthropic']);
    expect(problemsOf({ EXTRACTION: 'hybrid', EXTRACTION_PROVIDER: 'gemini', OPENAI_API_KEY: 'sk-1' })).toEqual([
      expect.stringMatching(/^EXTRACTION_PROVIDER is "gemini" but its key is not set: set GEMINI_API_KEY/),
    ]);
  });
});

describe('parseCrawlHostMap', () => {
  it('maps hosts to origins', () => {
    const map = parseCrawlHostMap('Acme.example=http://127.0.0.1:4100, shop.example=http://127.0.0.1:4200/');
    expect([...map]).toEqual([
      ['acme.example', 'http://127.0.0.1:4100'],
      ['shop.example', 'http://127.0.0.1:4200'],
    ]);
  });

  it('rejects entries that are not host=origin', () => {
    expect(() => parseCrawlHostMap('acme.example')).toThrow(ConfigError);
    expect(() => parseCrawlHostMap('acme.example=file:///etc/passwd')).toThrow(/origin/);
    expect(() => parseCrawlHostMap('acme.example=http://127.0.0.1:4100/path')).toThrow(/origin/);
  });
});

describe('parseTrustProxy', () => {
  it('reads booleans, hop counts and address lists', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
  });

  it('rejects what Express would misread', () => {
    expect(() => parseTrustProxy('my-proxy')).toThrow(ConfigError);
  });
});
