import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support/service.js';
import { SERVER_CARD_MEDIA_TYPE } from './server-card.js';

const BASE_URL = 'http://visibility.test';
const MCP_URL = `${BASE_URL}/mcp`;
const TOOL_NAMES = ['get_visibility_check', 'get_visibility_history', 'start_visibility_check'];
const PATHS = ['/.well-known/mcp.json', '/.well-known/mcp', '/.well-known/mcp/server-card.json'] as const;

// Runs against the real service once service.ts mounts discoveryRoutes(context); until then there
// is nothing to request. After mounting, this guard can go.
const mounted = readFileSync(new URL('../service.ts', import.meta.url), 'utf8').includes('discoveryRoutes(');

describe.skipIf(!mounted)('the discovery manifests served by the running service', () => {
  let running: TestService;
  beforeAll(async () => {
    running = await startTestService({ BASE_URL });
  });
  afterAll(async () => {
    await running.stop();
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${running.url}${path}`, { headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: response.status === 200 ? (JSON.parse(text) as Record<string, any>) : undefined };
  }

  it('answers each path with 200 JSON, public CORS, Cache-Control and an ETag', async () => {
    for (const path of PATHS) {
      const { status, headers } = await get(path);
      expect(status, path).toBe(200);
      expect(headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(headers.get('access-control-allow-origin'), path).toBe('*');
      expect(headers.get('cache-control'), path).toBe('public, max-age=300');
      expect(headers.get('etag'), path).toMatch(/^"[A-Za-z0-9_-]+"$/);
    }
  });

  it('names {BASE_URL}/mcp as the endpoint and lists the MCP tools', async () => {
    const discovery = (await get('/.well-known/mcp.json')).body;
    expect(discovery?.transport).toEqual({ type: 'streamable-http', endpoint: MCP_URL });
    expect(discovery?.authentication).toEqual({ required: false, schemes: [] });
    expect(discovery?.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of discovery?.tools ?? []) expect(tool.inputSchema).toMatchObject({ type: 'object' });

    const card = (await get('/.well-known/mcp/server-card.json')).body;
    expect(card?.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: MCP_URL })]);
    expect(card?.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(TOOL_NAMES);

    const server = (await get('/.well-known/mcp')).body;
    expect(server?.name).toBe('test.visibility/ai-visibility');
    expect(server?.remotes).toEqual([{ type: 'streamable-http', url: MCP_URL }]);
    expect(server?.packages[0].environmentVariables[0]).toMatchObject({ name: 'VISIBILITY_MCP_URL', default: MCP_URL });
    expect(server?._meta['io.modelcontextprotocol.registry/publisher-provided'].tools.map((tool: { name: string }) => tool.name).sort()).toEqual(TOOL_NAMES);
  });

  it('revalidates with If-None-Match, answers CORS preflight, and gives the server card its own media type on request', async () => {
    const first = await get('/.well-known/mcp/server-card.json');
    const etag = first.headers.get('etag') ?? '';
    const revalidated = await get('/.well-known/mcp/server-card.json', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');

    const preflight = await fetch(`${running.url}/.well-known/mcp.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');

    const negotiated = await get('/.well-known/mcp/server-card.json', { accept: SERVER_CARD_MEDIA_TYPE });
    expect(negotiated.headers.get('content-type')).toBe(`${SERVER_CARD_MEDIA_TYPE}; charset=utf-8`);
    expect(negotiated.headers.get('vary')).toBe('Accept');
    expect(negotiated.text).toBe(first.text);
  });
});
