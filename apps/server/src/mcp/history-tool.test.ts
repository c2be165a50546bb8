// get_visibility_history over real streamable HTTP: the owner's session cookie on the MCP connection.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';

const SESSION_SECRET = 'history-tool-test-secret-0123456789abcdef';
const OWNER = 'owner@pipedrive.test';
let running: TestService;
let watchId: string;
const clients: Client[] = [];

beforeAll(async () => {
  running = await startTestService({ SESSION_SECRET }, undefined, { watchScheduler: false });
  const response = await fetch(`${running.url}/api/watches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}` },
    body: JSON.stringify({ brand: 'Pipedrive', category: 'CRM software', schedule: 'weekly', questions: ['Which CRM is best for a small agency?'], samples: 2 }),
  });
  watchId = ((await response.json()) as { id: string }).id;
  await running.service.watchTracker.tick(new Date(Date.now() + 1_000));
  await running.service.watchTracker.idle();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await running?.stop();
});

async function connect(email?: string): Promise<Client> {
  const client = new Client({ name: 'history-tool-test', version: '1.0.0' });
  const headers: Record<string, string> = email === undefined ? {} : { cookie: `${SESSION_COOKIE}=${createSessionToken(email, SESSION_SECRET)}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const text = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

describe('get_visibility_history', () => {
  it("answers the signed-in owner's watch by brand and category, with points, changes and a summary to relay", async () => {
    const client = await connect(OWNER);
    const result = (await client.callTool({ name: 'get_visibility_history', arguments: { brand: 'pipedrive', category: 'CRM Software' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as any;
    expect(content.watch).toMatchObject({ id: watchId, brand: 'Pipedrive' });
    expect(content.points).toHaveLength(1);
    expect(content.points[0].overall.answers).toBe(6);
    expect(content.changes).toEqual([]);
    expect(content.summary).toContain('demo answers from a simulator');
    expect(content.summary).toContain('within noise');
    expect(text(result)).toBe(content.summary);
    const byId = (await client.callTool({ name: 'get_visibility_history', arguments: { watchId } })) as CallToolResult;
    expect((byId.structuredContent as any).watch.id).toBe(watchId);
  });

  it('answers unauthorized without a session, and watch_not_found for another account', async () => {
    const anonymous = await connect();
    const refused = (await anonymous.callTool({ name: 'get_visibility_history', arguments: { watchId } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^unauthorized: /);
    const other = await connect('someone@else.test');
    const hidden = (await other.callTool({ name: 'get_visibility_history', arguments: { watchId } })) as CallToolResult;
    expect(text(hidden)).toMatch(/^watch_not_found: /);
    expect(text((await other.callTool({ name: 'get_visibility_history', arguments: { brand: 'Pipedrive' } })) as CallToolResult)).toMatch(/^watch_not_found: /);
  });
});
