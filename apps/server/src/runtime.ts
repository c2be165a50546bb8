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
} from '@visibility/core';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';

/** Everything a measurement needs, built once from the config; shared by the server and the CLI. */
export interface Runtime {
  readonly config: Config;
  readonly store: Store;
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
  const store = openStore({ dataDir: config.dataDir });
  if (store.appliedMigrations.length > 0) logger.info('store migrated', { path: store.path, applied: store.appliedMigrations });
  let simulator: RunningSimulator | undefined;
  try {
    const sessionSecret = ensureSessionSecret(config.dataDir, config.sessionSecret);
    const budget = createBudget(store.budgetRepository, {
      monthlyBudgetUsd: config.monthlyBudgetUsd,
      modelPrices: config.modelPrices,
      degradedReserveFraction: config.degradedAuditReservePercent / 100,
    });
    const rateLimiter = createRateLimiter(store.rateLimitRepository, {
      policies: buildLimitPolicies({ repeatDailyCap: config.repeatDailyCap }),
      // Map reads spend nothing: their counters are in memory (no SQLite write per read); the rest stay durable.
      inMemoryOperations: IN_MEMORY_LIMITED_OPERATIONS,
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
    for (const [id, provider] of adapters) lineup.set(id, withBudget(provider, budget, { callLog: store.repository }));
    const brandExtractor = createBrandExtractor(config, budget, store, logger);
    const mailer = createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: defaultFromAddress(config.baseUrl) });
    // Every process on this DATA_DIR shares one host, so a lease whose owner process is gone is free at once.
    const jobs = createJobRunner({ store: store.jobRepository, logger: logger.child({ component: 'jobs' }), reclaimDeadLocalOwners: true });
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
          store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await simulator?.close();
    store.close();
    throw error;
  }
}

/**
 * EXTRACTION's extractor. The second opinion's model is its own bare adapter: one attempt (no retries)
 * under a short deadline, its spend reserved and settled in the same monthly budget and its calls in
 * the same call log as every measurement's.
 */
function createBrandExtractor(config: Config, budget: Budget, store: Store, logger: Logger): BrandExtractor {
  const extraction = config.extraction;
  if (extraction.mode === 'rules') {
    if (extraction.ignoredHybrid !== undefined) logger.warn(extraction.ignoredHybrid, { extraction: 'rules' });
    return rulesBrandExtractor;
  }
  const adapter = createProvider(extraction.provider, extraction.settings, {
    timeoutMs: SECOND_OPINION_TIMEOUT_MS,
    maxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS,
  });
  const provider = withBudget(adapter, budget, { defaultMaxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS, callLog: store.repository });
  logger.info('extraction: rules plus a model second opinion', { extraction: 'hybrid', provider: provider.id, model: provider.model });
  return createHybridBrandExtractor({ provider, logger: logger.child({ component: 'extraction' }) });
}
