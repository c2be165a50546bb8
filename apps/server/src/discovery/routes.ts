import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_INSTRUCTIONS, MCP_SERVER_NAME, VISIBILITY_TOOLS } from '@visibility/mcp';
import type { RouteContext } from '../route-context.js';
import { SERVICE_VERSION } from '../version.js';
import type { ManifestInput } from './manifest-input.js';
import { buildMcpJson } from './mcp-json.js';
import { buildServerCard, SERVER_CARD_MEDIA_TYPE } from './server-card.js';
import { buildRegistryServerJson } from './server-json.js';
import { describeTools } from './tool-descriptors.js';

/** The manifests change only with the code and BASE_URL: caches may keep them a few minutes, then revalidate. */
export const MANIFEST_CACHE_CONTROL = 'public, max-age=300';

/** The three discovery paths, each with its document. */
export function buildManifests(input: ManifestInput): Record<string, Record<string, unknown>> {
  return {
    '/.well-known/mcp.json': buildMcpJson(input),
    '/.well-known/mcp': buildRegistryServerJson(input),
    '/.well-known/mcp/server-card.json': buildServerCard(input),
  };
}

/**
 * GET /.well-known/mcp.json, /.well-known/mcp and /.well-known/mcp/server-card.json, built once
 * from BASE_URL and the tool definitions /mcp registers (never touches a provider or the store).
 */
export function discoveryRoutes(context: RouteContext): Router {
  return manifestRouter(
    buildManifests({
      baseUrl: context.config.baseUrl,
      version: SERVICE_VERSION,
      serverName: MCP_SERVER_NAME,
      instructions: MCP_SERVER_INSTRUCTIONS,
      tools: describeTools(VISIBILITY_TOOLS),
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    }),
  );
}

/** Serves each document at its path with the discovery headers. */
export function manifestRouter(manifests: Record<string, Record<string, unknown>>): Router {
  const router = Router();
  for (const [path, document] of Object.entries(manifests)) {
    const body = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const alternateType = path.endsWith('/server-card.json') ? SERVER_CARD_MEDIA_TYPE : undefined;
    router.options(path, (_request, response) => {
      setCorsHeaders(response);
      response.setHeader('Access-Control-Max-Age', '86400');
      response.status(204).end();
    });
    router.get(path, (request, response) => sendManifest(request, response, body, etag, alternateType));
  }
  return router;
}

function sendManifest(request: Request, response: Response, body: Buffer, etag: string, alternateType: string | undefined): void {
  setCorsHeaders(response);
  response.setHeader('Cache-Control', MANIFEST_CACHE_CONTROL);
  response.setHeader('ETag', etag);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  if (alternateType !== undefined) response.setHeader('Vary', 'Accept');
  if (matchesEtag(request.headers['if-none-match'], etag)) {
    response.status(304).end();
    return;
  }
  // application/json unless the client explicitly asks for the draft's own media type.
  const type = alternateType !== undefined && (request.headers.accept ?? '').includes(alternateType) ? alternateType : 'application/json';
  response.status(200).setHeader('Content-Type', `${type}; charset=utf-8`);
  response.send(body);
}

/** Public, credential-free documents: any origin may read them, as the server-card draft asks. */
function setCorsHeaders(response: Response): void {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  response.setHeader('Access-Control-Allow-Headers', 'Content-Type, If-None-Match');
  response.setHeader('Access-Control-Expose-Headers', 'ETag');
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}
