import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import { isStoreUnreachable, type Logger, type TrustProxySetting } from '@visibility/core';
import { ApiError, docsUrlFor, sendApiError, unknownApiEndpoint } from './http/api-error.js';
import { requestContext } from './http/request-context.js';
import { auditRoutes, type AuditRouteDependencies } from './rest/audit-routes.js';
import { toApiError } from './rest/core-errors.js';
import { publicCors } from './rest/cors.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { quickMeasurementRoutes, type QuickMeasurementDependencies } from './rest/quick-measurements.js';
import { healthRoutes, type HealthInfo } from './routes/health.js';
import type { LayoutContext } from './site/layout.js';
import { sendSiteNotFound } from './site/pages.js';

export interface AppDependencies extends QuickMeasurementDependencies, Omit<AuditRouteDependencies, 'budget' | 'lineup' | 'rateLimiter'> {
  logger: Logger;
  baseUrl: string;
  trustProxy: TrustProxySetting;
  health: HealthInfo;
  /** Further route modules (map, sign-in, tokens, site), mounted before the 404 handler. */
  routers?: Router[];
  /** The site's layout: outside /api a 404 is then the site's markdown (or HTML) 404 instead of JSON. */
  siteLayout?: LayoutContext | undefined;
  /** The OpenAPI description, when the caller built it already (the site serves the same one); else built here. */
  openApiDocument?: Record<string, unknown> | undefined;
}

/** Builds the one Express app that serves REST, MCP and the site. */
export function createApp(dependencies: AppDependencies): Express {
  const app = express();
  const docsUrl = docsUrlFor(dependencies.baseUrl);
  app.disable('x-powered-by');
  app.set('trust proxy', dependencies.trustProxy);
  app.set('etag', false);
  // Every answer is only what its Content-Type says: JSON that echoes a hostile brand is never sniffed as HTML.
  app.use((_request, response, next) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(requestContext(dependencies.logger));
  app.use(healthRoutes(dependencies.health));

  // Built once: the document only changes with the code and BASE_URL.
  const openApiJson = Buffer.from(JSON.stringify(dependencies.openApiDocument ?? buildOpenApiDocument(dependencies.baseUrl), null, 2));
  app.use(['/api', '/openapi.json'], publicCors);
  app.get('/openapi.json', (_request, response) => {
    response.setHeader('Cache-Control', 'public, max-age=300');
    response.type('application/json').send(openApiJson);
  });
  app.use(quickMeasurementRoutes(dependencies));
  app.use(auditRoutes(dependencies));
  for (const router of dependencies.routers ?? []) app.use(router);

  const notFound: RequestHandler = (request, response) => {
    const underApi = request.path === '/api' || request.path.startsWith('/api/');
    // A path that exists for other methods (PUT on a POST route) is a 405 naming the ones it has, not a 404.
    const allowed = underApi ? allowedMethods(app.router as unknown as RouterLike, request.path) : [];
    if (allowed.length > 0) {
      response.setHeader('Allow', allowed.join(', '));
      sendApiError(
        response,
        new ApiError(405, 'method_not_allowed', `${request.path} does not answer ${request.method}.`, `Use ${allowed.join(' or ')}; see /openapi.json.`),
        docsUrl,
      );
      return;
    }
    if (!underApi && dependencies.siteLayout !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
      if (sendSiteNotFound(response, dependencies.siteLayout, request.path, request.headers.accept)) return;
    }
    sendApiError(
      response,
      underApi
        ? unknownApiEndpoint(request.method, request.path)
        : new ApiError(404, 'not_found', `Nothing is published at ${request.path}.`, 'Start from / or read /llms.txt for the list of pages.'),
      docsUrl,
    );
  };
  app.use(notFound);

  const handleError: ErrorRequestHandler = (error: unknown, request, response, _next) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    // A core error a route did not convert still answers its spec status and code (the one table).
    const converted = toApiError(error);
    if (converted instanceof ApiError) {
      sendApiError(response, converted, docsUrl);
      return;
    }
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 400 && status < 500) {
      sendApiError(response, new ApiError(status, 'bad_request', 'The request could not be read.', 'Send a JSON body with Content-Type: application/json.'), docsUrl);
      return;
    }
    if (isStoreUnreachable(error)) {
      // PostgreSQL is down or cut off (the pool gave up within its 3 s connect deadline): an ordinary
      // state for the client, and the pool reconnects by itself once the database is back.
      request.log.warn('store unreachable', { error: (error as Error).message });
      sendApiError(
        response,
        new ApiError(503, 'store_unavailable', 'The database is unreachable right now.', 'Retry in a minute (60 seconds).', { 'Retry-After': '60' }),
        docsUrl,
      );
      return;
    }
    request.log.error('unhandled error', { error });
    sendApiError(
      response,
      new ApiError(500, 'server_error', 'Something went wrong on our side.', `Try again in a minute; quote request id ${request.requestId} if it keeps happening.`),
      docsUrl,
    );
  };
  app.use(handleError);
  return app;
}

interface LayerLike {
  route?: { methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  match(path: string): unknown;
}
interface RouterLike {
  stack: LayerLike[];
}

/** The methods the app's routes answer at this path (HEAD with GET, OPTIONS when CORS answers it), upper case, sorted. */
export function allowedMethods(router: RouterLike, path: string): string[] {
  const methods = new Set<string>();
  const walk = (stack: readonly LayerLike[]): void => {
    for (const layer of stack) {
      if (!layer.match(path)) continue;
      if (layer.route !== undefined) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
      } else if (layer.handle?.stack !== undefined) {
        walk(layer.handle.stack);
      }
    }
  };
  walk(router.stack);
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
