import { reportUrl } from './site/report-access.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Budget, Config, Logger, Provider, ProviderId, RateLimiter, StartAuditDependencies, Store, WatchTracker } from '@visibility/core';
import type { RunningSimulator } from '@visibility/simulator';
import { createApp } from './app.js';
import { authRoutes } from './auth/auth-routes.js';
import { discoveryRoutes } from './discovery/index.js';
import { docsUrlFor } from './http/api-error.js';
import { createCheapReads } from './http/cheap-reads.js';
import { mcpRoutes } from './mcp/mcp-routes.js';
import { mapRoutes } from './rest/map-routes.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { auditTokenRoutes } from './rest/audit-token-routes.js';
import { watchRoutes } from './rest/watch-routes.js';
import { watchSiteRoutes } from './site/watch-site-routes.js';
import { siteRoutes } from './site/site-routes.js';
import { createStaticSite } from './site/static-site.js';
import type { RouteContext } from './route-context.js';
import { createRuntime, type RuntimeStore } from './runtime.js';
import { SERVICE_VERSION } from './version.js';

/** A started service: its address, what answers, and how to stop it cleanly. */
export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly lineup: ReadonlyMap<ProviderId, Provider>;
  /** The SQLite store (tests and tools reach its tables); reading it in PostgreSQL mode throws: use `ports`. */
  readonly store: Store;
  /** The store's ports as the service uses them, SQLite or PostgreSQL. */
  readonly ports: RuntimeStore;
  readonly budget: Budget;
  readonly rateLimiter: RateLimiter;
  /** Present in demo mode: the simulator the real SDK adapters talk to. */
  readonly simulator: RunningSimulator | undefined;
  /** Runs watches; its scheduler ticks every minute unless started with watchScheduler: false. */
  readonly watchTracker: WatchTracker;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes everything. */
  close(graceMs?: number): Promise<void>;
}

/** How long the HTTP server lets a slow client hold a socket (see startService). */
export interface HttpTimeouts {
  /** Time allowed to receive the request headers (slowloris on headers). */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request, body included (a body trickled byte by byte). */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above; a timeout is enforced within this much of its value. */
  connectionsCheckingIntervalMs: number;
}

/** Production values. Slow clients cannot hold a socket forever; measurement routes stay well inside these. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  // Node's default is 30 s, which lets a slow client hold a socket up to 50 s against a 20 s headersTimeout.
  connectionsCheckingIntervalMs: 5_000,
};

/** Seams for tests only; production starts with none of them. */
export interface StartServiceOptions {
  /** Shorter server timeouts, so slow-client tests finish in seconds. */
  httpTimeouts?: Partial<HttpTimeouts> | undefined;
  /** The crawler POST /api/audit uses (tests inject one with a scripted DNS resolver). */
  crawl?: StartAuditDependencies['crawl'];
  /** false: the watch scheduler does not tick by itself (tests drive it with runtime.watchTracker.tick). */
  watchScheduler?: boolean | undefined;
}

/** Composition root: config -> store, lineup -> Express app -> listening HTTP server. */
export async function startService(config: Config, logger: Logger, options: StartServiceOptions = {}): Promise<RunningService> {
  const startedAt = new Date();
  const runtime = await createRuntime(config, logger);
  const { store, budget, rateLimiter, lineup, brandExtractor, simulator, mailer } = runtime;
  try {
    // The site's pages, discovery files and stylesheet are rendered once here and answered from memory.
    const openApiDocument = buildOpenApiDocument(config.baseUrl);
    const site = createStaticSite({ baseUrl: config.baseUrl, demo: config.providerMode === 'demo', openApiDocument });
    const context: RouteContext = { config, runtime, logger, siteLayout: site.layout };
    const buyerQuestionMaps = mapRoutes(context);
    const mcp = mcpRoutes(context, { mapRunner: buyerQuestionMaps.dependencies.runner });
    const tokens = auditTokenRoutes(context);
    const app = createApp({
      routers: [
        buyerQuestionMaps.router,
        mcp.router,
        authRoutes(context),
        tokens.router,
        watchRoutes(context, runtime.watchTracker, { crawl: options.crawl }),
        watchSiteRoutes(context, runtime.watchTracker),
        discoveryRoutes(context),
        siteRoutes(context, site, buyerQuestionMaps.dependencies),
      ],
      siteLayout: site.layout,
      openApiDocument,
      logger,
      lineup,
      brandExtractor,
      budget,
      rateLimiter,
      mode: config.providerMode,
      auditRepository: store.auditRepository,
      mailer,
      crawlHostMap: config.crawlHostMap,
      crawl: options.crawl,
      baseUrl: config.baseUrl,
      sessionSecret: runtime.sessionSecret,
      reportUrl: (auditId: string) => reportUrl(config.baseUrl, runtime.sessionSecret, auditId),
      trustProxy: config.trustProxy,
      health: {
        mode: config.providerMode,
        providers: [...lineup.values()].map((provider) => ({ provider: provider.id, model: provider.model })),
        version: SERVICE_VERSION,
        startedAt,
      },
    });
    const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts };
    // The badge, map reads and unknown-API 404s answer before Express too, with the bytes Express would send.
    const cheapReads = createCheapReads({
      badgeAnswer: tokens.badgeAnswer,
      readMap: buyerQuestionMaps.readAnswer,
      app,
      docsUrl: docsUrlFor(config.baseUrl),
      logger,
    });
    // Cheap reads (pages, markdown views, discovery files, the stylesheet) skip Express entirely.
    const server = createServer({ connectionsCheckingInterval: timeouts.connectionsCheckingIntervalMs }, (request, response) => {
      if (!site.handle(request, response) && !cheapReads.handle(request, response)) app(request, response);
    });
    // Slow clients cannot hold a socket forever; measurement routes stay well inside these.
    server.headersTimeout = timeouts.headersTimeoutMs;
    server.requestTimeout = timeouts.requestTimeoutMs;
    server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
    await listen(server, config.port);
    // The job runner takes over what is free (map jobs pick up where their stored cells end; runs a dead
    // process left auditing fail, runs left mapping follow their map) and keeps scanning and heartbeating.
    // Jobs another live instance holds stay with it.
    await runtime.jobs.start();
    // Due watches run under the job runner (a run whose process died is taken over like a map job).
    if (options.watchScheduler !== false) runtime.watchTracker.start();
    const port = (server.address() as AddressInfo).port;
    const url = `http://localhost:${port}`;

    if (simulator !== undefined) {
      logger.info(
        `demo lineup: no provider key is set, so openai, anthropic and gemini answers come from the built-in simulator at ${simulator.url} and are labelled demo (model ids start with "demo-"). Set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY for live measurements.`,
        { mode: 'demo', simulator: simulator.url },
      );
    } else {
      logger.info('live lineup', { mode: 'live', providers: [...lineup.values()].map((provider) => `${provider.id}:${provider.model}`) });
    }
    logger.info('listening', { url, baseUrl: config.baseUrl, port, version: SERVICE_VERSION });

    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      lineup,
      get store(): Store {
        if (store.sqlite === undefined) throw new Error('the service runs on PostgreSQL (DATABASE_URL): it has no SQLite store; use ports');
        return store.sqlite;
      },
      ports: store,
      budget,
      rateLimiter,
      simulator,
      watchTracker: runtime.watchTracker,
      close(graceMs = 10_000) {
        closing ??= (async () => {
          // Map jobs stop with the server (their waiting POSTs answer the running state) and before the store closes.
          await Promise.all([buyerQuestionMaps.stop(graceMs), mcp.stop(graceMs), runtime.watchTracker.stop(graceMs), stopServer(server, graceMs)]);
          await runtime.close();
          logger.info('stopped');
        })();
        return closing;
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function stopServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}
