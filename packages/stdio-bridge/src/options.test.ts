import { describe, expect, it } from 'vitest';
import { DEFAULT_MCP_URL, parseBridgeCommand, usageText } from './options.js';

describe('parseBridgeCommand', () => {
  it('takes --url over VISIBILITY_MCP_URL over the default, in both flag spellings', () => {
    const environment = { VISIBILITY_MCP_URL: 'https://env.example/mcp' };
    expect(parseBridgeCommand(['--url', 'http://localhost:3000/mcp'], environment)).toEqual({
      kind: 'serve',
      url: new URL('http://localhost:3000/mcp'),
      urlSource: 'flag',
      debug: false,
      headers: {},
    });
    expect(parseBridgeCommand([], { VISIBILITY_MCP_DEBUG: '1' })).toMatchObject({ kind: 'serve', debug: true });
    expect(parseBridgeCommand(['--url=https://flag.example/mcp'], environment)).toMatchObject({ url: new URL('https://flag.example/mcp'), urlSource: 'flag' });
    expect(parseBridgeCommand([], environment)).toMatchObject({ url: new URL('https://env.example/mcp'), urlSource: 'environment' });
    expect(parseBridgeCommand([], { VISIBILITY_MCP_URL: '  ' })).toMatchObject({ url: new URL(DEFAULT_MCP_URL), urlSource: 'default' });
    expect(parseBridgeCommand([], {})).toMatchObject({ url: new URL(DEFAULT_MCP_URL), urlSource: 'default' });
  });

  it('takes repeatable --header "Name: value" for every request to the remote', () => {
    expect(parseBridgeCommand(['--header', 'Cookie: sb-access-token=a.b', '--header=X-Team:  growth '], {})).toMatchObject({
      kind: 'serve',
      headers: { Cookie: 'sb-access-token=a.b', 'X-Team': 'growth' },
    });
  });

  it('answers help and version before anything else', () => {
    expect(parseBridgeCommand(['--url', 'nope', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseBridgeCommand(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseBridgeCommand(['--version'], { VISIBILITY_MCP_URL: 'not a url' })).toEqual({ kind: 'version' });
  });

  it('refuses unknown arguments, a missing value and URLs that are not http(s), naming where the URL came from', () => {
    expect(parseBridgeCommand(['serve'], {})).toEqual({ kind: 'usage-error', message: 'Unknown argument: serve' });
    expect(parseBridgeCommand(['--url'], {})).toEqual({ kind: 'usage-error', message: expect.stringContaining('--url needs a value') });
    expect(parseBridgeCommand(['--url', '--help'], {})).toMatchObject({ kind: 'usage-error' });
    expect(parseBridgeCommand(['--url', 'localhost:3000/mcp'], {})).toEqual({ kind: 'usage-error', message: expect.stringMatching(/^--url must be an http\(s\) URL/) });
    expect(parseBridgeCommand(['--header'], {})).toEqual({ kind: 'usage-error', message: expect.stringContaining('--header needs a value') });
    expect(parseBridgeCommand(['--header', 'no colon'], {})).toEqual({ kind: 'usage-error', message: expect.stringContaining('"Name: value"') });
    expect(parseBridgeCommand(['--header', 'Bad Name: x'], {})).toMatchObject({ kind: 'usage-error' });
    expect(parseBridgeCommand(['--header', 'Mcp-Session-Id: 1'], {})).toEqual({ kind: 'usage-error', message: expect.stringContaining('set by the bridge itself') });
    expect(parseBridgeCommand([], { VISIBILITY_MCP_URL: 'file:///etc/passwd' })).toEqual({
      kind: 'usage-error',
      message: expect.stringMatching(/^VISIBILITY_MCP_URL must be an http\(s\) URL/),
    });
  });
});

describe('usageText', () => {
  it('documents the flag, the variable, the default and the local URL', () => {
    const text = usageText('1.2.3');
    expect(text).toContain('visibility-mcp 1.2.3');
    expect(text).toContain('--url <mcp_url>');
    expect(text).toContain('$VISIBILITY_MCP_URL');
    expect(text).toContain(DEFAULT_MCP_URL);
    expect(text).toContain('http://localhost:3000/mcp');
  });
});
