// Property-based fuzzing of the MCP endpoint (issue 8, "Fuzzing"): generated bad tool arguments through the
// SDK client over the real /mcp, and raw malformed JSON-RPC POSTs. Every answer must be a JSON-RPC error or
// an `isError` tool result: never a 5xx, never HTML, never a dead session or server. The tool arguments are
// invalid by construction (checked against the tool's own schema and the audit validation), so no
// measurement ever starts.
//
// Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run apps/server/src/mcp/fuzz.test.ts

import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditRequest } from '@visibility/core';
import { getVisibilityCheckTool, startVisibilityCheckTool } from '@visibility/mcp';
import {
  auditFieldName,
  auditFieldTooLong,
  dropMissing,
  MISSING,
  plausibleAuditFields,
  blankString,
  brokenJsonText,
  closeFuzzClient,
  printFuzzStats,
  fuzzParameters,
  hugeString,
  nastyString,
  nonString,
  rawRequest,
  strangeBytes,
  type RawReply,
} from '../rest/test-support/fuzz-http.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { MAX_MCP_BODY_BYTES } from './mcp-routes.js';
import { initializeRaw } from './test-support/raw-http.js';

const TIMEOUT = 60_000;

let running: TestService;
let mcpUrl: string;
let client: Client;
let rawSessionId: string;

beforeAll(async () => {
  running = await startTestService();
  mcpUrl = `${running.url}/mcp`;
  client = new Client({ name: 'mcp-fuzz-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  ({ sessionId: rawSessionId } = await initializeRaw(mcpUrl, LATEST_PROTOCOL_VERSION));
});

afterAll(async () => {
  printFuzzStats();
  closeFuzzClient();
  await client?.close();
  await running?.stop();
});

const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/**
 * A tool call must end in an `isError` result (the tool's or the SDK's input validation) or a JSON-RPC
 * error (McpError; a 4xx of the transport such as 413 for a body over 64 KB). Anything else (a 5xx, a
 * timeout, a success) fails.
 */
async function expectToolRefusal(name: string, args: unknown): Promise<void> {
  let result: CallToolResult;
  try {
    result = (await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: 15_000 })) as CallToolResult;
  } catch (error) {
    if (error instanceof McpError) {
      expect(Number.isInteger(error.code), String(error)).toBe(true);
      expect(error.code, String(error)).not.toBe(-32603);
      return;
    }
    if (error instanceof StreamableHTTPError) {
      expect(error.code, String(error)).toBeGreaterThanOrEqual(400);
      expect(error.code, String(error)).toBeLessThan(500);
      return;
    }
    throw error;
  }
  expect(result.isError, `${name} accepted ${JSON.stringify(args)?.slice(0, 300)}: ${textOf(result).slice(0, 300)}`).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const text = textOf(result);
  expect(text.length).toBeGreaterThan(0);
  // A handler's failure is "code: what happened. what to do"; never the generic failure of an unexpected throw.
  expect(text, text).not.toMatch(/^server_error:/);
}

/** Whether start_visibility_check would start a measurement with these arguments (its schema, then the audit validation). */
function wouldStart(value: unknown): boolean {
  const parsed = startVisibilityCheckTool.inputSchema.safeParse(value);
  if (!parsed.success) return false;
  const input = parsed.data;
  try {
    parseAuditRequest(
      { brand: input.brand, website: input.website, category: input.category, competitors: input.competitors, location: input.location, promptLanguage: input.language, email: input.email },
      { hostMap: new Map() },
    );
    return true;
  } catch {
    return false;
  }
}

describe('start_visibility_check with bad arguments', () => {
  const plausible = plausibleAuditFields('language');
  const field = auditFieldName('language');
  const poison: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    fc.tuple(field, nonString).map(([name, value]) => ({ [name]: value })),
    fc.tuple(fc.constantFrom('brand', 'website', 'category'), fc.oneof(blankString, fc.constant(MISSING))).map(([name, value]) => ({ [name]: value })),
    auditFieldTooLong,
    fc
      .constantFrom('localhost', 'http://[::1]/', '127.0.0.1', 'http://10.1.2.3', '169.254.169.254', 'file:///etc/passwd', 'javascript:alert(1)', 'http://', 'acme example.com')
      .map((website) => ({ website })),
    fc.constantFrom('not-an-email', 'a@', '@acme.example', 'a@b', 'a b@acme.example').map((email) => ({ email })),
    // Past the 64 KB body limit: the transport's 413 (a JSON-RPC error body), not a crash.
    hugeString(MAX_MCP_BODY_BYTES, MAX_MCP_BODY_BYTES + 20_000).map((brand) => ({ brand })),
  );
  const extras = fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'promptLanguage')), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  const objectArgs = fc.tuple(extras, plausible, poison).map(([extra, base, bad]) => dropMissing({ ...extra, ...base, ...bad }));
  const args: fc.Arbitrary<unknown> = fc.oneof({ weight: 8, arbitrary: objectArgs }, { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), fc.integer(), nastyString(10)) });

  it('answers an isError result or a JSON-RPC error, and never starts a run', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(args.filter((value) => !wouldStart(value)), async (value) => {
        await expectToolRefusal('start_visibility_check', value);
      }),
      // null arguments were answered -32603 Internal error by the SDK until invalid-params.ts (now -32602).
      { ...fuzzParameters<[unknown]>(120), examples: [[null], [[]]] },
    );
    const runs = (
      await Promise.all((['queued', 'auditing', 'mapping', 'done', 'failed'] as const).map((status) => running.service.store.mcpRunRepository.runsWithStatus(status)))
    ).flat();
    expect(runs).toEqual([]);
    expect(running.service.simulator?.requests().length ?? 0).toBe(0);
  });
});

describe('get_visibility_check with bad arguments', () => {
  const runId = fc.oneof(
    fc.uuid(),
    fc.uuid().map((id) => id.toUpperCase()),
    nastyString(40),
    nonString,
    hugeString(1_000, 30_000),
    fc.constant(MISSING),
    fc.constantFrom('', ' ', '00000000-0000-0000-0000-000000000000', `${randomUUID()} `, `{${randomUUID()}}`, '../../etc/passwd', "' OR 1=1 --"),
  );
  const waitSeconds = fc.oneof(
    fc.constant(MISSING),
    fc.integer({ min: 0, max: 50 }),
    fc.integer({ min: -1_000_000, max: -1 }),
    fc.integer({ min: 51, max: 2 ** 31 }),
    fc.double({ noNaN: true }).filter((value) => !Number.isInteger(value)),
    fc.constantFrom(1e308, -0, 2 ** 53 + 1, '5', '', true, null, [], {}),
  );
  const args = fc.tuple(fc.record({ runId, waitSeconds }).map(dropMissing), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })).map(([fields, extra]) => ({ ...extra, ...fields }));

  it('answers an isError result (run_not_found, bad input) or a JSON-RPC error, quickly', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(args, async (value) => {
        // Valid arguments name no stored run: that is run_not_found at once, whatever waitSeconds says.
        await expectToolRefusal('get_visibility_check', value);
      }),
      fuzzParameters(120),
    );
  });
});

/** Methods a request may name that answer a result rather than an error (they are not junk). */
const ANSWERING_METHODS = new Set(['ping', 'tools/list', 'initialize']);

describe('raw malformed JSON-RPC POSTs to /mcp', () => {
  const id = fc.oneof(
    fc.integer(),
    fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5, Number.MAX_SAFE_INTEGER),
    nastyString(20),
    hugeString(1_000, 20_000),
    fc.constantFrom(null, true, [], {}, [1], { a: 1 }),
  );
  const method = fc.oneof(
    nastyString(20),
    fc.constantFrom('rpc.discover', '__proto__', 'constructor', 'tools/call', 'tools/list ', 'TOOLS/LIST', 'resources/list', 'prompts/get', 'sampling/createMessage', 'notifications/cancelled', 'notifications/initialized', 'completion/complete', 'logging/setLevel', ''),
    hugeString(1_000, 10_000),
    nonString,
  );
  const params = fc.oneof(fc.constant(MISSING), fc.jsonValue({ maxDepth: 3 }), fc.record({ name: fc.oneof(nastyString(20), fc.constantFrom('start_visibility_check', 'get_visibility_check'), nonString), arguments: fc.jsonValue({ maxDepth: 2 }) }));
  const jsonrpc = fc.oneof({ weight: 3, arbitrary: fc.constant('2.0') }, { weight: 2, arbitrary: fc.oneof(fc.constant(MISSING), fc.constantFrom('1.0', '2', 2, 2.0, null, '2.0 ', '')) });
  const message = fc.oneof(
    fc.record({ jsonrpc, id, method, params }).map(dropMissing),
    fc.record({ jsonrpc, method, params }).map(dropMissing),
    fc.record({ jsonrpc, id, result: fc.jsonValue({ maxDepth: 2 }) }).map(dropMissing),
    fc.record({ jsonrpc, id, error: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ code: fc.integer(), message: nastyString(10) })) }).map(dropMissing),
    fc.jsonValue({ maxDepth: 2 }),
  );
  /** No message may be a request this server answers with a result: the property is that junk gets errors. */
  const isJunk = (value: unknown): boolean => {
    const messages = Array.isArray(value) ? value : [value];
    return messages.every((entry) => {
      if (isInitializeRequest(entry)) return false;
      if (typeof entry !== 'object' || entry === null) return true;
      const { method: named, params: given } = entry as { method?: unknown; params?: { arguments?: unknown } };
      if (named === 'tools/call' && wouldStart(given?.arguments)) return false;
      return !(typeof named === 'string' && ANSWERING_METHODS.has(named));
    });
  };
  const payload = fc.oneof({ weight: 4, arbitrary: message }, { weight: 2, arbitrary: fc.array(message, { maxLength: 5 }) }).filter(isJunk);
  // Well-formed JSON-RPC 2.0 that reaches the session: unknown methods, huge or odd ids, junk params for
  // the real methods (tools/call arguments, a tools/list cursor), notifications and stray responses.
  const validId = fc.oneof(fc.integer(), fc.constantFrom(2 ** 53 + 1, 1e308, -1e308, -0, Number.MAX_SAFE_INTEGER), nastyString(20), hugeString(1_000, 20_000));
  const junkParams = fc.oneof(fc.constant(MISSING), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));
  const wellFormed = fc.oneof(
    fc.record({ jsonrpc: fc.constant('2.0'), id: validId, method: fc.oneof(nastyString(20), fc.constantFrom('rpc.discover', 'resources/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'tasks/list', 'sampling/createMessage')), params: junkParams }).map(dropMissing),
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: validId,
      method: fc.constant('tools/call'),
      params: fc.record({ name: fc.oneof(fc.constantFrom('start_visibility_check', 'get_visibility_check', 'nope', ''), nastyString(10), nonString), arguments: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(MISSING)) }).map(dropMissing),
    }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: validId, method: fc.constant('tools/list'), params: fc.record({ cursor: fc.oneof(nonString, nastyString(10)) }) }),
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.oneof(nastyString(20), fc.constantFrom('notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed')), params: junkParams }).map(dropMissing),
    fc.record({ jsonrpc: fc.constant('2.0'), id: validId, result: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }) }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: validId, error: fc.record({ code: fc.integer(), message: nastyString(10) }) }),
  );
  const wellFormedPayload = fc.oneof({ weight: 4, arbitrary: wellFormed }, { weight: 1, arbitrary: fc.array(wellFormed, { minLength: 1, maxLength: 4 }) }).filter(isJunk);
  const body: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
    { weight: 6, arbitrary: wellFormedPayload.map((value) => JSON.stringify(value)) },
    { weight: 4, arbitrary: payload.chain((value) => brokenJsonText(value)) },
    { weight: 1, arbitrary: strangeBytes(30_000) },
    { weight: 1, arbitrary: hugeString(MAX_MCP_BODY_BYTES, MAX_MCP_BODY_BYTES + 10_000).map((pad) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad } })) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', '[]', '[[]]', '[{}]', 'null', '{}', '[null]', '{"jsonrpc":"2.0"}') },
  );
  const session = fc.oneof(
    { weight: 10, arbitrary: fc.constant('raw') },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/[^\x21-\x7e]/g, '') || 'x')) },
  );
  const headers = fc.record({
    contentType: fc.oneof({ weight: 12, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json-rpc') }),
    accept: fc.oneof({ weight: 12, arbitrary: fc.constant('application/json, text/event-stream') }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'application/json', 'text/event-stream', '*/*', 'text/html') }),
    protocolVersion: fc.oneof({ weight: 10, arbitrary: fc.constant(LATEST_PROTOCOL_VERSION) }, { weight: 1, arbitrary: fc.constantFrom(undefined, '1999-01-01', '', 'latest', '2025-03-26') }),
  });

  it('answers JSON-RPC errors (or 202 for what needs no answer), never a 5xx or HTML, and the session survives', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(body, session, headers, async (sent, sessionChoice, header) => {
        const reply = await rawRequest(mcpUrl, {
          method: 'POST',
          headers: {
            ...(header.contentType === undefined ? {} : { 'content-type': header.contentType }),
            ...(header.accept === undefined ? {} : { accept: header.accept }),
            ...(header.protocolVersion === undefined ? {} : { 'mcp-protocol-version': header.protocolVersion }),
            ...(sessionChoice === undefined ? {} : { 'mcp-session-id': sessionChoice === 'raw' ? rawSessionId : sessionChoice }),
          },
          body: sent,
        });
        expectJsonRpcRefusal(reply);
      }),
      fuzzParameters(250),
    );
    // The session the junk was sent on still works, and so does the SDK client's.
    const listed = await rawRequest(mcpUrl, {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': rawSessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'after-fuzz', method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    expect(sseMessages(listed).some((entry) => (entry as { id?: unknown }).id === 'after-fuzz')).toBe(true);
  });
});

describe('after the fuzzing', () => {
  it('still serves the SDK client and GET /health', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([startVisibilityCheckTool.name, getVisibilityCheckTool.name, 'get_visibility_history']);
    const unknown = (await client.callTool({ name: 'get_visibility_check', arguments: { runId: randomUUID() } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^run_not_found:/);
    const health = await rawRequest(`${running.url}/health`, { method: 'GET' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok' });
  });
});

/** The JSON-RPC messages of an SSE answer (each `data:` line). */
function sseMessages(reply: RawReply): unknown[] {
  return reply.text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5)) as unknown);
}

function describeReply(reply: RawReply): string {
  return `${reply.status} ${reply.contentType}: ${reply.text.slice(0, 300)}`;
}

/** One JSON-RPC error response, or a tools/call result with isError (junk arguments to a real tool). */
function expectErrorMessage(message: unknown, reply: RawReply): void {
  expect(typeof message === 'object' && message !== null, describeReply(reply)).toBe(true);
  const entry = message as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown }; result?: { isError?: unknown } };
  expect(entry.jsonrpc, describeReply(reply)).toBe('2.0');
  if (entry.error !== undefined) {
    expect(Number.isInteger(entry.error.code), describeReply(reply)).toBe(true);
    expect(entry.error.code, `an internal error: ${describeReply(reply)}`).not.toBe(-32603);
    expect(typeof entry.error.message, describeReply(reply)).toBe('string');
    return;
  }
  expect(entry.result?.isError, `a junk request answered a result: ${describeReply(reply)}`).toBe(true);
}

/** A refusal of /mcp: a JSON-RPC error body (or batch of them), an SSE stream of them, or 202 with no body. */
function expectJsonRpcRefusal(reply: RawReply): void {
  expect(reply.status, describeReply(reply)).toBeLessThan(500);
  expect(reply.text, describeReply(reply)).not.toMatch(/<html|<!doctype|\n\s+at /i);
  if (reply.status === 202) {
    expect(reply.text, describeReply(reply)).toBe('');
    return;
  }
  if (reply.contentType.startsWith('text/event-stream')) {
    expect(reply.status, describeReply(reply)).toBe(200);
    const messages = sseMessages(reply);
    expect(messages.length, describeReply(reply)).toBeGreaterThan(0);
    for (const message of messages) expectErrorMessage(message, reply);
    return;
  }
  expect(reply.contentType, describeReply(reply)).toMatch(/^application\/json\b/);
  const parsed: unknown = JSON.parse(reply.text);
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) expectErrorMessage(message, reply);
  if (reply.status === 200) return;
  expect(reply.status, describeReply(reply)).toBeGreaterThanOrEqual(400);
}
