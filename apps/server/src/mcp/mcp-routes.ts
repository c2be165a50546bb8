import { randomUUID } from 'node:crypto';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { Router, type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  createBuyerQuestionMapRunner,
  type BuyerQuestionMapRunner,
  createVisibilityRunTracker,
  recoverVisibilityRuns,
  registerVisibilityRunJobs,
  type VisibilityRunDependencies,
} from '@visibility/core';
import { escapeHtml, isStoreUnreachable, type McpSessionStore } from '@visibility/core';
import { createMcpServer } from '@visibility/mcp';
import { ApiError, sendApiError } from '../http/api-error.js';
import { declaresOversizeBody, jsonReader } from '../http/json-reader.js';
import { readSession } from '../auth/session.js';
import { callerKey } from '../rest/caller.js';
import type { RouteContext } from '../route-context.js';
import { sendPage } from '../site/pages.js';
import { reportKey } from '../site/report-access.js';
import { SERVICE_VERSION } from '../version.js';
import { answerInvalidParams } from './invalid-params.js';
import { JSON_RPC_ERRORS, sendJsonRpcError } from './json-rpc-errors.js';
import { SessionEventStore } from './session-event-store.js';
import { handleNodeRequest, replayInitialize } from './session-transport.js';
import { McpSessions, type McpSession } from './sessions.js';

/** Where the MCP server answers ({mcp_url} = {base_url}/mcp). */
export const MCP_PATH = '/mcp';
/** An MCP message is small (the tools' arguments are under 1 KB); anything far larger is refused unread. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;
/** Sweep for idle sessions this often (at most; a shorter idle time sweeps more often). */
const SWEEP_INTERVAL_MS = 60 * 1000;
const RESUME_RETRY_MS = 1_000;

/** The /mcp routes plus the run jobs' lifecycle: recover on start, stop on close. */
export interface McpRoutes {
  router: Router;
  /** Fails runs a killed process left auditing and starts maps never created; call after the map jobs resumed. */
  recover(): Promise<void>;
  /** Closes every session, then lets runs in flight finish for up to graceMs; call before the store closes. */
  stop(graceMs?: number): Promise<void>;
}

export interface McpRoutesOptions {
  /** Defaults: MCP_MAX_SESSIONS, MCP_MAX_SESSIONS_PER_CALLER, MCP_SESSION_IDLE_SECONDS of the config. */
  maxSessions?: number;
  maxSessionsPerCaller?: number;
  idleMs?: number;
  /**
   * The service's one buyer-question map runner (the REST map routes'), so an audit's map is never run
   * by two runners at once; a runner of its own when absent (tests of /mcp alone).
   */
  mapRunner?: BuyerQuestionMapRunner | undefined;
}

/**
 * Streamable HTTP at /mcp (POST, GET for the server's SSE stream, DELETE to end a session), one
 * McpServer per session, created on initialize only. Every session is recorded in the store
 * (McpSessionStore), so any instance serves it: one that gets a request for a session it does not hold
 * rebuilds it from the store, and a session ended anywhere answers 404 everywhere (docs/mcp.md).
 * Protocol refusals are JSON-RPC error bodies:
 * unknown session 404 (-32001), missing session 400, unreadable JSON 400 (-32700), a body that is no
 * JSON-RPC message 400 (-32600), a Host other than BASE_URL's or localhost's 403. The one capacity
 * refusal, an initialize when no session can be freed, is an ApiError (429/503 with Retry-After).
 */
export function mcpRoutes(context: RouteContext, options: McpRoutesOptions = {}): McpRoutes {
  const { config, runtime, logger } = context;
  const docsUrl = `${config.baseUrl}/developers`;
  /** The report's own page, opened by the private key the site's report links use. */
  const reportUrl = (auditId: string): string => `${config.baseUrl}/report/${auditId}?key=${reportKey(runtime.sessionSecret, auditId)}`;
  const mcpLogger = logger.child({ component: 'mcp' });
  const runs: VisibilityRunDependencies = {
    lineup: runtime.lineup,
    brandExtractor: runtime.brandExtractor,
    budget: runtime.budget,
    mode: config.providerMode,
    auditRepository: runtime.store.auditRepository,
    accountRepository: runtime.store.accountRepository,
    mapStore: runtime.store.mapStore,
    mapRepository: runtime.store.mapRepository,
    mailer: runtime.mailer,
    baseUrl: config.baseUrl,
    crawlHostMap: config.crawlHostMap,
    // The same runner as the REST map routes: one audit's map job runs once, whoever started it.
    runner: options.mapRunner ?? createBuyerQuestionMapRunner({ concurrencyPerProvider: config.providerConcurrency, jobs: runtime.jobs }),
    runRepository: runtime.store.mcpRunRepository,
    rateLimiter: runtime.rateLimiter,
    // Each run's progress is stored too, so an instance that does not run it shows the same progress.
    tracker: createVisibilityRunTracker({ jobs: runtime.jobs, progressStore: runtime.store.mcpRunRepository, logger: mcpLogger }),
    logger: mcpLogger,
  };
  // Runs other processes left (a dead owner, a lease given back) are taken over by the job runner with these.
  registerVisibilityRunJobs(runs);
  const idleMs = options.idleMs ?? config.mcpSessionIdleMs;
  const sessionStore: McpSessionStore = runtime.store.mcpSessionRepository;
  const sessions = new McpSessions({
    maxSessions: options.maxSessions ?? config.mcpMaxSessions,
    maxSessionsPerCaller: options.maxSessionsPerCaller ?? config.mcpMaxSessionsPerCaller,
    idleMs,
  });
  const sweeper = setInterval(
    () => {
      // This instance's copies of idle sessions go (the store still has them: the session may be in use
      // elsewhere); sessions idle on every instance, or ended, leave the store.
      sessions.closeIdle();
      sessionStore.deleteSessionsBefore(new Date(Date.now() - idleMs)).catch((error: unknown) => mcpLogger.warn('MCP session sweep failed', { error }));
    },
    Math.min(SWEEP_INTERVAL_MS, Math.max(1_000, Math.floor(idleMs / 4))),
  );
  sweeper.unref();
  /** Sessions being rebuilt from the store, so two requests arriving together rebuild one. */
  const rebuilding = new Map<string, Promise<McpSession | undefined>>();

  /**
   * The session with this id, if it is open: this instance's copy once the store confirms it is still
   * open (and marks it used), or one rebuilt from the store when this instance does not hold it.
   * Undefined when it ended (on any instance), went idle or never existed: the caller answers 404.
   */
  async function sessionFor(sessionId: string, request: Request): Promise<McpSession | undefined> {
    const now = new Date();
    const seenSince = new Date(now.getTime() - idleMs);
    const held = sessions.get(sessionId);
    if (held !== undefined) {
      if (await sessionStore.touchSession(sessionId, now, seenSince)) return held;
      // Ended on another instance (DELETE, eviction), or idle past the idle time: this copy goes too.
      sessions.close(sessionId);
      return undefined;
    }
    let rebuilt = rebuilding.get(sessionId);
    if (rebuilt === undefined) {
      rebuilt = rebuild(sessionId, now, seenSince, request).finally(() => rebuilding.delete(sessionId));
      rebuilding.set(sessionId, rebuilt);
    }
    return rebuilt;
  }

  /** Rebuilds a session another instance (or this one before a restart) opened, when the store says it is open. */
  async function rebuild(sessionId: string, now: Date, seenSince: Date, request: Request): Promise<McpSession | undefined> {
    if (!(await sessionStore.touchSession(sessionId, now, seenSince))) return undefined;
    const record = await sessionStore.getSession(sessionId);
    if (record === undefined) return undefined;
    const session = openSession(record.callerKey, record.ownerEmail, sessionId);
    await session.server.connect(session.transport);
    answerInvalidParams(session.transport);
    // Its onsessioninitialized adds it to this instance's sessions.
    await replayInitialize(session.transport, record);
    request.log.info('MCP session rebuilt from the store', { caller: record.callerKey });
    return session;
  }

  const router = Router();
  // DNS-rebinding protection (the SDK's own middleware): BASE_URL's host, plus the loopback names a local client uses.
  router.use(MCP_PATH, hostHeaderValidation(allowedHosts(config.baseUrl)), mcpCors);

  router.post(MCP_PATH, readJsonRpcBody, async (request: Request, response: Response) => {
    const body: unknown = request.body;
    if (!isJsonRpcPayload(body)) {
      sendJsonRpcError(response, 400, JSON_RPC_ERRORS.invalidRequest, 'Invalid Request: the body must be a JSON-RPC 2.0 message.');
      return;
    }
    const sessionId = request.get('mcp-session-id');
    if (sessionId !== undefined) {
      const session = await sessionFor(sessionId, request);
      if (session === undefined) {
        sendSessionNotFound(response);
        return;
      }
      sessions.track(session, response);
      await handleNodeRequest(session.transport, request, response, body);
      return;
    }
    if (!isInitializeRequest(body)) {
      sendJsonRpcError(response, 400, JSON_RPC_ERRORS.transport, 'Bad Request: Mcp-Session-Id header is required (initialize first).');
      return;
    }
    const caller = callerKey(request);
    const admission = sessions.admit(caller);
    if (!admission.admitted) {
      // The one /mcp refusal that is an ApiError: it is about the service's capacity, not the protocol,
      // and carries the spec's Retry-After (when a session will be free, not a guess).
      const { status, code, message, hint, retryAfterSeconds } = admission.refusal;
      request.log.warn('MCP session refused', { code, caller, open: sessions.size });
      sendApiError(response, new ApiError(status, code, message, hint, { 'Retry-After': String(retryAfterSeconds) }), docsUrl);
      return;
    }
    const evictedId = admission.evicted?.transport.sessionId;
    if (admission.evicted !== undefined) request.log.info('MCP session evicted to make room', { caller, evictedCaller: admission.evicted.callerKey });
    // An evicted session is ended for every instance, as a DELETE would end it.
    if (evictedId !== undefined) await sessionStore.endSession(evictedId, new Date());
    const ownerEmail = readSession(request, runtime.sessionSecret)?.email;
    // Recorded before the client learns the id, so its next request may land on any instance. An
    // initialize the transport then refuses leaves a row nobody knows the id of, ended below.
    const newSessionId = randomUUID();
    await sessionStore.insertSession({
      id: newSessionId,
      callerKey: caller,
      ownerEmail,
      protocolVersion: body.params.protocolVersion,
      clientInfo: body.params.clientInfo,
      clientCapabilities: body.params.capabilities,
      createdAt: new Date().toISOString(),
    });
    const session = openSession(caller, ownerEmail, newSessionId);
    sessions.track(session, response);
    await session.server.connect(session.transport);
    // Params that do not fit their method answer -32602, not the SDK's -32603 Internal error.
    answerInvalidParams(session.transport);
    await handleNodeRequest(session.transport, request, response, body);
    if (session.transport.sessionId === undefined) await sessionStore.endSession(newSessionId, new Date());
  });

  const existingSession: RequestHandler = async (request, response) => {
    const sessionId = request.get('mcp-session-id');
    if (sessionId === undefined) {
      sendJsonRpcError(response, 400, JSON_RPC_ERRORS.transport, 'Bad Request: Mcp-Session-Id header is required.');
      return;
    }
    const session = await sessionFor(sessionId, request);
    if (session === undefined) {
      sendSessionNotFound(response);
      return;
    }
    // A standing GET stream does not hold the session busy; a resumed stream (Last-Event-ID) still
    // delivers a request's answer, a DELETE is brief.
    if (request.method === 'GET' && request.get('last-event-id') === undefined) sessions.touch(session);
    else sessions.track(session, response);
    await handleNodeRequest(session.transport, request, response);
  };
  // A person who opens the MCP address in a browser gets a page saying what it is, not a JSON-RPC error.
  // MCP clients send Accept: text/event-stream (and a session id); only a plain page request lands here.
  router.get(MCP_PATH, (request, response, next) => {
    const layout = context.siteLayout;
    if (layout === undefined || request.get('mcp-session-id') !== undefined || request.accepts(['text/event-stream', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    const url = `${config.baseUrl}${MCP_PATH}`;
    sendPage(response, layout, {
      title: 'MCP server',
      path: MCP_PATH,
      noindex: true,
      body: `<p class="lede">This address is the service's MCP server (streamable HTTP, no key): it talks to AI assistants, not to browsers.</p>
<p>Add it to your MCP client with the URL <code>${escapeHtml(url)}</code>, for example:</p>
<pre><code>claude mcp add --transport http visibility ${escapeHtml(url)}</code></pre>
<p>The tools, every client's setup and the stdio bridge: <a href="/developers">developers</a>. Measure a brand in the browser instead: <a href="/">home</a>.</p>
`,
    });
  });
  router.get(MCP_PATH, existingSession);
  router.delete(MCP_PATH, existingSession);
  router.all(MCP_PATH, (_request, response) => {
    sendJsonRpcError(response, 405, JSON_RPC_ERRORS.transport, 'Method not allowed.', { Allow: 'GET, POST, DELETE, OPTIONS' });
  });

  // Errors of this router stay JSON-RPC: the app's handler would turn them into ApiErrors.
  const handleError: ErrorRequestHandler = (error: unknown, request, response, _next) => {
    if (isStoreUnreachable(error)) {
      // Sessions are in the store: without it no session can be opened, found or ended.
      request.log.warn('MCP request refused: the store is unreachable', { error });
      if (!response.headersSent) sendJsonRpcError(response, 503, JSON_RPC_ERRORS.internalError, 'The database is unreachable right now; retry in a minute.', { 'Retry-After': '60' });
      return;
    }
    request.log.error('MCP request failed', { error });
    if (!response.headersSent) sendJsonRpcError(response, 500, JSON_RPC_ERRORS.internalError, 'Internal error.');
  };
  router.use(MCP_PATH, handleError);

  /** A session's server and transport, bound to its id; added to this instance's sessions once (re)initialised. */
  function openSession(caller: string, ownerEmail: string | undefined, sessionId: string): McpSession {
    // The signed-in owner of the request that opened the session, for get_visibility_history (watches are private).
    const server = createMcpServer({ runs, callerKey: caller, serverVersion: SERVICE_VERSION, reportUrl, watches: { tracker: runtime.watchTracker, ownerEmail } });
    // The session exists only once its initialize succeeded; a refused initialize leaves nothing behind.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: new SessionEventStore(),
      // Sent with each stream's priming event: how long a client waits before resuming a broken stream.
      retryInterval: RESUME_RETRY_MS,
      onsessioninitialized: (initialisedId) => sessions.add(initialisedId, session),
      // DELETE: ended in the store before the client hears 200, so every instance answers 404 from then on.
      onsessionclosed: async (closedId) => {
        await sessionStore.endSession(closedId, new Date());
      },
    });
    const session: McpSession = { transport, server, callerKey: caller, lastActiveAt: Date.now(), openRequestStarts: [] };
    transport.onclose = () => {
      // An evicted session is already gone; never remove a newer session by a stale id.
      if (transport.sessionId !== undefined && sessions.get(transport.sessionId) === session) sessions.remove(transport.sessionId);
    };
    return session;
  }

  let stopping: Promise<void> | undefined;
  return {
    router,
    async recover() {
      await recoverVisibilityRuns(runs);
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        clearInterval(sweeper);
        await sessions.closeAll();
        await Promise.all([runs.tracker.stop(graceMs), runs.runner.stop(graceMs)]);
      })();
      return stopping;
    },
  };
}

/** BASE_URL's host and the loopback names (tests and local clients reach the service on 127.0.0.1). */
export function allowedHosts(baseUrl: string): string[] {
  return [...new Set([new URL(baseUrl).hostname, 'localhost', '127.0.0.1', '[::1]'])];
}

function sendSessionNotFound(response: Response): void {
  sendJsonRpcError(response, 404, JSON_RPC_ERRORS.sessionNotFound, 'Session not found: it ended or never existed. Send initialize without Mcp-Session-Id to start a new session.');
}

/** One JSON-RPC message or a non-empty batch of them. */
function isJsonRpcPayload(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0 && body.every((message) => JSONRPCMessageSchema.safeParse(message).success);
  return JSONRPCMessageSchema.safeParse(body).success;
}

const readJson = jsonReader(MAX_MCP_BODY_BYTES);

/** Reads the POST body as JSON, answering unreadable bodies with JSON-RPC errors (-32700 for broken JSON). */
function readJsonRpcBody(request: Request, response: Response, next: NextFunction): void {
  if (!request.is('application/json')) {
    sendJsonRpcError(response, 415, JSON_RPC_ERRORS.transport, 'Unsupported Media Type: Content-Type must be application/json.');
    return;
  }
  const tooLarge = () => sendJsonRpcError(response, 413, JSON_RPC_ERRORS.transport, `Payload Too Large: at most ${MAX_MCP_BODY_BYTES} bytes.`);
  if (declaresOversizeBody(request, MAX_MCP_BODY_BYTES)) {
    response.setHeader('Connection', 'close');
    tooLarge();
    return;
  }
  readJson(request, response, (failure) => {
    if (failure === undefined) next();
    else if (failure === 'invalid_json') sendJsonRpcError(response, 400, JSON_RPC_ERRORS.parseError, 'Parse error: Invalid JSON.');
    else if (failure === 'too_large') tooLarge();
    else sendJsonRpcError(response, 400, JSON_RPC_ERRORS.parseError, 'Parse error: the body could not be read as UTF-8 JSON.');
  });
}

/**
 * Browser-based clients may call the endpoint from any origin (nothing here uses cookies); they need to
 * read the session id and protocol version headers the transport sets.
 */
function mcpCors(request: Request, response: Response, next: NextFunction): void {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version');
  if (request.method === 'OPTIONS') {
    response.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID');
    response.setHeader('Access-Control-Max-Age', '86400');
    response.status(204).end();
    return;
  }
  next();
}
