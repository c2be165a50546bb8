import { randomUUID } from 'node:crypto';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
import { escapeHtml } from '@visibility/core';
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
 * McpServer per session, created on initialize only. Protocol refusals are JSON-RPC error bodies:
 * unknown session 404 (-32001), missing session 400, unreadable JSON 400 (-32700), a body that is no
 * JSON-RPC message 400 (-32600), a Host other than BASE_URL's or localhost's 403. The one capacity
 * refusal, an initialize when no session can be freed, is an ApiError (429/503 with Retry-After).
 */
export function mcpRoutes(context: RouteContext, options: McpRoutesOptions = {}): McpRoutes {
  const { config, runtime, logger } = context;
  const docsUrl = `${config.baseUrl}/developers`;
  /** The report's own page, opened by the private key the site's report links use. */
  const reportUrl = (auditId: string): string => `${config.baseUrl}/report/${auditId}?key=${reportKey(runtime.sessionSecret, auditId)}`;
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
    tracker: createVisibilityRunTracker({ jobs: runtime.jobs }),
    logger: logger.child({ component: 'mcp' }),
  };
  // Runs other processes left (a dead owner, a lease given back) are taken over by the job runner with these.
  registerVisibilityRunJobs(runs);
  const idleMs = options.idleMs ?? config.mcpSessionIdleMs;
  const sessions = new McpSessions({
    maxSessions: options.maxSessions ?? config.mcpMaxSessions,
    maxSessionsPerCaller: options.maxSessionsPerCaller ?? config.mcpMaxSessionsPerCaller,
    idleMs,
  });
  const sweeper = setInterval(() => sessions.closeIdle(), Math.min(SWEEP_INTERVAL_MS, Math.max(1_000, Math.floor(idleMs / 4))));
  sweeper.unref();

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
      const session = sessions.get(sessionId);
      if (session === undefined) {
        sendSessionNotFound(response);
        return;
      }
      sessions.track(session, response);
      await session.transport.handleRequest(request, response, body);
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
    if (admission.evicted !== undefined) request.log.info('MCP session evicted to make room', { caller, evictedCaller: admission.evicted.callerKey });
    const session = openSession(caller, readSession(request, runtime.sessionSecret)?.email);
    sessions.track(session, response);
    await session.server.connect(session.transport);
    // Params that do not fit their method answer -32602, not the SDK's -32603 Internal error.
    answerInvalidParams(session.transport);
    await session.transport.handleRequest(request, response, body);
  });

  const existingSession: RequestHandler = async (request, response) => {
    const sessionId = request.get('mcp-session-id');
    if (sessionId === undefined) {
      sendJsonRpcError(response, 400, JSON_RPC_ERRORS.transport, 'Bad Request: Mcp-Session-Id header is required.');
      return;
    }
    const session = sessions.get(sessionId);
    if (session === undefined) {
      sendSessionNotFound(response);
      return;
    }
    // A standing GET stream does not hold the session busy; a resumed stream (Last-Event-ID) still
    // delivers a request's answer, a DELETE is brief.
    if (request.method === 'GET' && request.get('last-event-id') === undefined) sessions.touch(session);
    else sessions.track(session, response);
    await session.transport.handleRequest(request, response);
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
    request.log.error('MCP request failed', { error });
    sendJsonRpcError(response, 500, JSON_RPC_ERRORS.internalError, 'Internal error.');
  };
  router.use(MCP_PATH, handleError);

  function openSession(caller: string, ownerEmail: string | undefined): McpSession {
    // The signed-in owner of the request that opened the session, for get_visibility_history (watches are private).
    const server = createMcpServer({ runs, callerKey: caller, serverVersion: SERVICE_VERSION, reportUrl, watches: { tracker: runtime.watchTracker, ownerEmail } });
    // The session exists only once its initialize succeeded; a refused initialize leaves nothing behind.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      // Sent with each stream's priming event: how long a client waits before resuming a broken stream.
      retryInterval: RESUME_RETRY_MS,
      onsessioninitialized: (sessionId) => sessions.add(sessionId, session),
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
