import {
  buildLimitPolicies,
  createBudget,
  createJobRunner,
  createMailer,
  defaultFromAddress,
  createHybridBrandExtractor,
  createProvider,
  createProviderLineup,
  createRateLimiter,
  IN_MEMORY_LIMITED_OPERATIONS,
  ensureSessionSecret,
  openStore,
  resolveLineupSettings,
  rulesBrandExtractor,
  SECOND_OPINION_MAX_OUTPUT_TOKENS,
  SECOND_OPINION_TIMEOUT_MS,
  withBudget,
  WatchTracker,
  type BrandExtractor,
  type Budget,
  type Config,
  type JobRunner,
  type Logger,
  type Mailer,
  type Provider,
  type ProviderId,
  type RateLimiter,
  type Store,
  applyPgMigrations,
  createPgPool,
  PgAccountStore,
  PgAuditStore,
  PgBudgetStore,
  PgJobStore,
  PgMapStore,
  PgMcpSessionStore,
  PgRateLimitStore,
  PgRunStore,
  PgSignInStore,
  PgTokenStore,
  PgWatchStore,
  type AccountStore,
  type BadgeSubjectReader,
  type BadgeSubjectRecord,
  type BudgetStore,
  type JobStore,
  type MapAudits,
  type MapRepository,
  type MapStore,
  type McpSessionStore,
  type PgPool,
  type ProviderCallRecord,
  type RateLimitStore,
  type RunStore,
  type SignInStore,
  type TokenStore,
  type WatchStore,
} from '@visibility/core';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';

/**
 * The store as the service uses it: one adapter per port, SQLite in DATA_DIR or PostgreSQL on
 * DATABASE_URL. The two synchronous fast-path reads (the map read's mapRepository and the badge's
 * badgeReader) exist only on SQLite; in PostgreSQL mode they are undefined and those reads go through
 * the async Express routes (docs/architecture.md).
 */
export interface RuntimeStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly auditRepository: MapAudits;
  readonly accountRepository: AccountStore;
  readonly mapStore: MapStore;
  readonly tokenRepository: TokenStore;
  /** The badge's subject, awaited (every mode). */
  readonly badgeSubjects: { findBadgeSubject(tokenHash: string): Promise<BadgeSubjectRecord | undefined> };
  readonly signInRepository: SignInStore;
  readonly rateLimitRepository: RateLimitStore;
  readonly budgetRepository: BudgetStore;
  readonly mcpRunRepository: RunStore;
  /** MCP sessions, so any instance serves a session another opened. */
  readonly mcpSessionRepository: McpSessionStore;
  readonly watchRepository: WatchStore;
  readonly jobRepository: JobStore;
  /** Where provider calls are logged (in the same transaction as their spend). */
  readonly callLog: { recordProviderCall(call: ProviderCallRecord): unknown };
  /** SQLite mode only: the map read's synchronous fast path. */
  readonly mapRepository: MapRepository | undefined;
  /** SQLite mode only: the badge's synchronous fast path. */
  readonly badgeReader: BadgeSubjectReader | undefined;
  /** SQLite mode only: the SQLite store itself. */
  readonly sqlite: Store | undefined;
  close(): Promise<void>;
}

/** Everything a measurement needs, built once from the config; shared by the server and the CLI. */
export interface Runtime {
  readonly config: Config;
  readonly store: RuntimeStore;
  readonly budget: Budget;
  readonly rateLimiter: RateLimiter;
  readonly lineup: ReadonlyMap<ProviderId, Provider>;
  /** Reads the brands out of every measured answer: the rules, or rules plus a model's second opinion (EXTRACTION). */
  readonly brandExtractor: BrandExtractor;
  readonly mailer: Mailer;
  /** Signs session cookies: SESSION_SECRET, or the one generated and kept in DATA_DIR. */
  readonly sessionSecret: string;
  /** Present in demo mode: the simulator the real SDK adapters talk to. */
  readonly simulator: RunningSimulator | undefined;
  /**
   * The one job runner (map jobs, MCP runs) with its leases in the store. Routes register their job
   * kinds; the service starts it once listening (takeover of free jobs, heartbeats) and close() stops it
   * before the store closes.
   */
  readonly jobs: JobRunner;
  /** Runs watches (tracking over time); the server starts its scheduler, the CLI ticks it once. Stopped by close(). */
  readonly watchTracker: WatchTracker;
  close(): Promise<void>;
}

/** Opens the store, starts the demo simulator when needed and composes the provider lineup. */
export async function createRuntime(config: Config, logger: Logger): Promise<Runtime> {
  const store = await openRuntimeStore(config, logger);
  let simulator: RunningSimulator | undefined;
  try {
    // PostgreSQL mode: config already refused a missing SESSION_SECRET (every instance must share it), so nothing is written to DATA_DIR.
    const sessionSecret = ensureSessionSecret(config.dataDir, config.sessionSecret);
    const budget = createBudget(store.budgetRepository, {
      monthlyBudgetUsd: config.monthlyBudgetUsd,
      modelPrices: config.modelPrices,
      degradedReserveFraction: config.degradedAuditReservePercent / 100,
    });
    const rateLimiter = createRateLimiter(store.rateLimitRepository, {
      policies: buildLimitPolicies({ repeatDailyCap: config.repeatDailyCap }),
      // Map reads spend nothing: on SQLite their counters are in memory (no write per read, answered before
      // Express without awaiting). On PostgreSQL the read awaits the database anyway, so its counter is there
      // too, one per deployment: N instances do not make N × 120 reads a minute.
      inMemoryOperations: store.kind === 'sqlite' ? IN_MEMORY_LIMITED_OPERATIONS : [],
    });
    if (config.providerMode === 'demo') simulator = await startSimulator({ host: '127.0.0.1', port: 0 });
    const adapters = createProviderLineup(resolveLineupSettings(config, simulator?.baseUrls), {
      timeoutMs: config.providerTimeoutMs,
      maxRetries: config.providerMaxRetries,
      maxConcurrentPerProvider: config.providerConcurrency,
    });
    const lineup = new Map<ProviderId, Provider>();
    // Reserve budget before queueing for a concurrency slot; each call is logged in the same
    // transaction as its settlement, so a crash between the two cannot make them disagree.
    for (const [id, provider] of adapters) lineup.set(id, withBudget(provider, budget, { callLog: store.callLog }));
    const brandExtractor = createBrandExtractor(config, budget, store, logger);
    const mailer = createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: defaultFromAddress(config.baseUrl) });
    // On SQLite every process on this DATA_DIR shares one host, so a lease whose owner process is gone is
    // free at once; on PostgreSQL instances run on other hosts too, so only an expired lease is taken over.
    const jobs = createJobRunner({
      store: store.jobRepository,
      ...jobTimings(config.jobLeaseMs),
      logger: logger.child({ component: 'jobs' }),
      reclaimDeadLocalOwners: store.kind === 'sqlite',
    });
    const watchTracker = new WatchTracker({
      jobs,
      watchRepository: store.watchRepository,
      lineup,
      brandExtractor,
      mode: config.providerMode,
      budget,
      mailer,
      baseUrl: config.baseUrl,
      hostMap: config.crawlHostMap,
      logger: logger.child({ component: 'tracking' }),
      concurrencyPerProvider: config.providerConcurrency,
    });
    const runningSimulator = simulator;
    let closing: Promise<void> | undefined;
    return {
      config,
      store,
      budget,
      rateLimiter,
      lineup,
      brandExtractor,
      mailer,
      sessionSecret,
      simulator,
      jobs,
      watchTracker,
      close() {
        closing ??= (async () => {
          // Watch runs stop before the providers and the store go: their answers so far are stored, they resume later.
          await watchTracker.stop();
          await jobs.stop();
          await runningSimulator?.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await simulator?.close();
    await store.close();
    throw error;
  }
}

/**
 * The job runner's timings from JOB_LEASE_SECONDS: heartbeats every third of the lease, scans every sixth
 * (at most every 5 s). The default 30 s lease gives the runner's defaults (10 s heartbeat, 5 s scan), so a
 * dead owner's job is taken over within 35 s; a shorter lease takes over sooner for more heartbeat writes.
 */
export function jobTimings(leaseMs: number): { leaseMs: number; heartbeatMs: number; scanMs: number } {
  return { leaseMs, heartbeatMs: Math.round(leaseMs / 3), scanMs: Math.min(5_000, Math.round(leaseMs / 6)) };
}

/**
 * EXTRACTION's extractor. The second opinion's model is its own bare adapter: one attempt (no retries)
 * under a short deadline, its spend reserved and settled in the same monthly budget and its calls in
 * the same call log as every measurement's.
 */
function createBrandExtractor(config: Config, budget: Budget, store: RuntimeStore, logger: Logger): BrandExtractor {
  const extraction = config.extraction;
  if (extraction.mode === 'rules') {
    if (extraction.ignoredHybrid !== undefined) logger.warn(extraction.ignoredHybrid, { extraction: 'rules' });
    return rulesBrandExtractor;
  }
  const adapter = createProvider(extraction.provider, extraction.settings, {
    timeoutMs: SECOND_OPINION_TIMEOUT_MS,
    maxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS,
  });
  const provider = withBudget(adapter, budget, { defaultMaxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS, callLog: store.callLog });
  logger.info('extraction: rules plus a model second opinion', { extraction: 'hybrid', provider: provider.id, model: provider.model });
  return createHybridBrandExtractor({ provider, logger: logger.child({ component: 'extraction' }) });
}

/** The store of this config: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR; migrated on open. */
export async function openRuntimeStore(config: Config, logger: Logger): Promise<RuntimeStore> {
  return config.databaseUrl === undefined ? openSqliteStore(config, logger) : openPostgresStore(config.databaseUrl, logger);
}

/** SQLite in DATA_DIR, migrated on open: the default, exactly as before DATABASE_URL existed. */
function openSqliteStore(config: Config, logger: Logger): RuntimeStore {
  const store = openStore({ dataDir: config.dataDir });
  if (store.appliedMigrations.length > 0) logger.info('store migrated', { path: store.path, applied: store.appliedMigrations });
  const tokens = store.tokenRepository;
  return {
    kind: 'sqlite',
    auditRepository: store.auditRepository,
    accountRepository: store.accountRepository,
    mapStore: store.mapStore,
    tokenRepository: tokens,
    badgeSubjects: { findBadgeSubject: async (tokenHash) => tokens.findBadgeSubject(tokenHash) },
    signInRepository: store.signInRepository,
    rateLimitRepository: store.rateLimitRepository,
    budgetRepository: store.budgetRepository,
    mcpRunRepository: store.mcpRunRepository,
    mcpSessionRepository: store.mcpSessionRepository,
    watchRepository: store.watchRepository,
    jobRepository: store.jobRepository,
    callLog: store.repository,
    mapRepository: store.mapRepository,
    badgeReader: tokens,
    sqlite: store,
    close: async () => store.close(),
  };
}

/**
 * Every port on PostgreSQL (DATABASE_URL): the pool fails fast while the database is unreachable and
 * recovers by itself; the schema is migrated on start under an advisory lock, so instances starting
 * together migrate one after the other.
 */
async function openPostgresStore(url: string, logger: Logger): Promise<RuntimeStore> {
  const storeLogger = logger.child({ component: 'store' });
  const pool: PgPool = createPgPool(url, { onError: (error) => storeLogger.warn('PostgreSQL connection lost', { error: error.message }) });
  try {
    const applied = await applyPgMigrations(pool);
    storeLogger.info(applied.length > 0 ? 'store migrated' : 'store ready', { database: 'postgres', applied });
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const tokens = new PgTokenStore(pool);
  const budget = new PgBudgetStore(pool);
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    auditRepository: new PgAuditStore(pool),
    accountRepository: new PgAccountStore(pool),
    mapStore: new PgMapStore(pool),
    tokenRepository: tokens,
    badgeSubjects: tokens,
    signInRepository: new PgSignInStore(pool),
    rateLimitRepository: new PgRateLimitStore(pool),
    budgetRepository: budget,
    mcpRunRepository: new PgRunStore(pool),
    mcpSessionRepository: new PgMcpSessionStore(pool),
    watchRepository: new PgWatchStore(pool),
    jobRepository: new PgJobStore(pool),
    callLog: budget,
    mapRepository: undefined,
    badgeReader: undefined,
    sqlite: undefined,
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
