import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, MCP_SERVER_INSTRUCTIONS, MCP_SERVER_NAME, VISIBILITY_TOOLS, type McpServerDependencies } from '@visibility/mcp';
import { SERVICE_VERSION } from '../version.js';
import { mcpUrl, registryServerName, SHORT_DESCRIPTION, STDIO_BRIDGE_PACKAGE } from './identity.js';
import type { ManifestInput } from './manifest-input.js';
import { buildMcpJson, SEP_1649_SCHEMA } from './mcp-json.js';
import { buildManifests } from './routes.js';
import { buildServerCard, SERVER_CARD_SCHEMA } from './server-card.js';
import { buildRegistryServerJson, SERVER_JSON_SCHEMA } from './server-json.js';
import { describeTools, type ToolDescriptor, type ZodToolDefinition } from './tool-descriptors.js';

// The patterns the registry's server.json (2025-12-11) and the v1 Server Card put on these fields.
const SERVER_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const REMOTE_URL_PATTERN = /^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/;

/** Definitions shaped like packages/mcp's: zod schemas (a raw shape and an object), annotations. */
const SAMPLE_DEFINITIONS: ZodToolDefinition[] = [
  {
    name: 'start_sample',
    title: 'Start a sample',
    description: 'Starts one; answers its id.',
    inputSchema: { brand: z.string().min(1).max(80), website: z.string().optional(), competitors: z.array(z.string()).max(5).default([]) },
    outputSchema: { runId: z.string().uuid(), existing: z.boolean() },
    annotations: { readOnlyHint: false, openWorldHint: true },
  },
  {
    name: 'get_sample',
    description: 'Reads one.',
    inputSchema: z.object({ runId: z.string().uuid(), waitSeconds: z.number().int().min(0).max(30).default(0) }),
    annotations: { readOnlyHint: true },
  },
];

const SAMPLE_TOOLS = describeTools(SAMPLE_DEFINITIONS);

function input(overrides: Partial<ManifestInput> = {}): ManifestInput {
  return {
    baseUrl: 'https://aivisibility.example',
    version: '1.2.3',
    serverName: 'ai-visibility',
    tools: SAMPLE_TOOLS,
    protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    ...overrides,
  };
}

describe('describeTool', () => {
  it('describes each definition exactly as the SDK McpServer lists it in tools/list', async () => {
    const server = new McpServer({ name: 'probe', version: '0.0.0' });
    for (const definition of SAMPLE_DEFINITIONS) {
      const { name, ...config } = definition;
      server.registerTool(name, config as Parameters<typeof server.registerTool>[1], async () => ({ content: [] }));
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'probe-client', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      // Through JSON, as a client receives it: fields the SDK leaves undefined disappear. `execution`
      // is the SDK's default task support for every registered tool, not part of a definition.
      const listed = (await client.listTools()).tools.map(({ execution: _execution, ...tool }) => tool);
      expect(JSON.parse(JSON.stringify(listed))).toEqual(SAMPLE_TOOLS);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('converts the input side for arguments (defaults optional) and the output side for results', () => {
    const [start, get] = SAMPLE_TOOLS as [ToolDescriptor, ToolDescriptor];
    expect(start.inputSchema).toMatchObject({ type: 'object', required: ['brand'], properties: { brand: { type: 'string', minLength: 1, maxLength: 80 } } });
    expect(start.outputSchema).toMatchObject({ type: 'object', required: ['runId', 'existing'] });
    expect(get.inputSchema).toMatchObject({ required: ['runId'], properties: { waitSeconds: { type: 'integer', default: 0 } } });
    expect(get).not.toHaveProperty('outputSchema');
    expect(get).not.toHaveProperty('title');
  });
});

describe('the tools /mcp serves', () => {
  it('are described in the manifests exactly as createMcpServer lists them, under the name it reports', async () => {
    // tools/list and initialize never reach the run core, so an empty stand-in is enough here.
    const server = createMcpServer({ runs: {} as McpServerDependencies['runs'], callerKey: 'manifest-test', serverVersion: SERVICE_VERSION, reportUrl: (auditId) => auditId });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'manifest-test', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const listed = (await client.listTools()).tools.map(({ execution: _execution, ...tool }) => tool);
      const described = describeTools(VISIBILITY_TOOLS);
      expect(described.map((tool) => tool.name)).toEqual(['start_visibility_check', 'get_visibility_check', 'get_visibility_history']);
      expect(JSON.parse(JSON.stringify(listed))).toEqual(described);

      const manifest = buildMcpJson(input({ tools: described, serverName: MCP_SERVER_NAME, instructions: MCP_SERVER_INSTRUCTIONS, version: SERVICE_VERSION }));
      expect(manifest.serverInfo).toMatchObject({ name: client.getServerVersion()?.name, title: client.getServerVersion()?.title, version: client.getServerVersion()?.version });
      expect(manifest.capabilities).toEqual({ tools: client.getServerCapabilities()?.tools });
      expect(manifest.instructions).toBe(client.getInstructions());
      for (const tool of described) {
        expect(tool.inputSchema).toMatchObject({ type: 'object' });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        expect(tool.description.length).toBeGreaterThan(40);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('identity', () => {
  it('derives a registry-valid reverse-DNS name from the BASE_URL host', () => {
    expect(registryServerName('https://aivisibility.dev')).toBe('dev.aivisibility/ai-visibility');
    expect(registryServerName('https://Visibility.Example.COM/tools')).toBe('com.example.visibility/ai-visibility');
    expect(registryServerName('http://localhost:3000')).toBe('localhost/ai-visibility');
    expect(registryServerName('http://127.0.0.1:3000')).toBe('127.0.0.1/ai-visibility');
    for (const baseUrl of ['https://aivisibility.dev', 'http://[::1]:3000', 'http://my_host.test']) {
      expect(registryServerName(baseUrl)).toMatch(SERVER_NAME_PATTERN);
    }
  });

  it('puts {mcp_url} at {base_url}/mcp, also under a path', () => {
    expect(mcpUrl('http://localhost:3000')).toBe('http://localhost:3000/mcp');
    expect(mcpUrl('https://example.com/visibility')).toBe('https://example.com/visibility/mcp');
  });

  it('keeps the short description within the 100 characters both registry formats allow', () => {
    expect(SHORT_DESCRIPTION.length).toBeGreaterThan(20);
    expect(SHORT_DESCRIPTION.length).toBeLessThanOrEqual(100);
  });
});

describe('/.well-known/mcp.json (SEP-1649 discovery manifest)', () => {
  it('names the server, its streamable-HTTP endpoint, no authentication, and every tool with its schemas', () => {
    const manifest = buildMcpJson(input());
    expect(manifest).toMatchObject({
      $schema: SEP_1649_SCHEMA,
      version: '1.0',
      protocolVersion: LATEST_PROTOCOL_VERSION,
      serverInfo: { name: 'ai-visibility', title: 'AI Visibility', version: '1.2.3' },
      documentationUrl: 'https://aivisibility.example/developers',
      transport: { type: 'streamable-http', endpoint: 'https://aivisibility.example/mcp' },
      capabilities: { tools: { listChanged: false } },
      authentication: { required: false, schemes: [] },
      resources: [],
      prompts: [],
    });
    expect(manifest.description).toEqual(expect.stringContaining('start_visibility_check'));
    expect(manifest.tools).toEqual(SAMPLE_TOOLS);
  });
});

describe('/.well-known/mcp/server-card.json (SEP-2127 Server Card, v1 draft)', () => {
  it('carries the v1 fields with the values the draft schema allows', () => {
    const card = buildServerCard(input());
    expect(card.$schema).toBe(SERVER_CARD_SCHEMA);
    expect(card.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/v1\/server-card\.schema\.json$/);
    expect(card).toMatchObject({
      name: 'example.aivisibility/ai-visibility',
      version: '1.2.3',
      description: SHORT_DESCRIPTION,
      title: 'AI Visibility',
      websiteUrl: 'https://aivisibility.example',
      remotes: [{ type: 'streamable-http', url: 'https://aivisibility.example/mcp', supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    });
    expect(card.name).toMatch(SERVER_NAME_PATTERN);
    expect((card.remotes as Array<{ url: string }>)[0]?.url).toMatch(REMOTE_URL_PATTERN);
    expect(card).not.toHaveProperty('packages');
  });

  it('keeps the SEP-1649 fields for readers of the earlier draft', () => {
    expect(buildServerCard(input())).toMatchObject({
      serverInfo: { name: 'ai-visibility', version: '1.2.3' },
      transport: { type: 'streamable-http', endpoint: 'https://aivisibility.example/mcp' },
      capabilities: { tools: { listChanged: false } },
      authentication: { required: false },
      tools: SAMPLE_TOOLS,
    });
  });
});

describe('/.well-known/mcp (MCP registry server.json, schema 2025-12-11)', () => {
  it('lists the remote and the npm stdio bridge preset to forward to it', () => {
    const server = buildRegistryServerJson(input({ baseUrl: 'http://localhost:3000' }));
    expect(server).toMatchObject({
      $schema: SERVER_JSON_SCHEMA,
      name: 'localhost/ai-visibility',
      title: 'AI Visibility',
      description: SHORT_DESCRIPTION,
      version: '1.2.3',
      websiteUrl: 'http://localhost:3000',
      remotes: [{ type: 'streamable-http', url: 'http://localhost:3000/mcp' }],
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: '@visibility/stdio-bridge',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'VISIBILITY_MCP_URL', isRequired: false, isSecret: false, format: 'string', default: 'http://localhost:3000/mcp' }],
        },
      ],
    });
    expect(server._meta).toEqual({
      'io.modelcontextprotocol.registry/publisher-provided': {
        tools: [{ name: 'start_sample', title: 'Start a sample' }, { name: 'get_sample' }],
        manifests: { discovery: 'http://localhost:3000/.well-known/mcp.json', serverCard: 'http://localhost:3000/.well-known/mcp/server-card.json' },
      },
    });
  });

  it('names the bridge package and version that packages/stdio-bridge really publishes, with a fixed version (no range, no "latest")', () => {
    const bridgeManifest = JSON.parse(readFileSync(new URL('../../../../packages/stdio-bridge/package.json', import.meta.url), 'utf8')) as {
      name: string;
      version: string;
      bin: Record<string, string>;
    };
    expect(STDIO_BRIDGE_PACKAGE).toEqual({ identifier: bridgeManifest.name, version: bridgeManifest.version });
    expect(Object.keys(bridgeManifest.bin)).toContain('visibility-mcp');
    const [npmPackage] = buildRegistryServerJson(input()).packages as Array<{ version: string }>;
    expect(npmPackage?.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  });
});

describe('buildManifests', () => {
  it('serves the three paths of the operating contract, each built from the same tools and BASE_URL', () => {
    const manifests = buildManifests(input({ baseUrl: 'https://other.example' }));
    expect(Object.keys(manifests).sort()).toEqual(['/.well-known/mcp', '/.well-known/mcp.json', '/.well-known/mcp/server-card.json']);
    const text = JSON.stringify(manifests);
    expect(text).not.toContain('aivisibility.example');
    expect(text.match(/https:\/\/other\.example\/mcp"/g)?.length).toBeGreaterThanOrEqual(4);
  });
});
