import { EventEmitter } from 'node:events';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { McpSessions, type McpSession } from './sessions.js';

/** A real transport and server, registered the way mcp-routes.ts does: removed from the map when closed. */
function openSession(sessions: McpSessions, sessionId: string, lastActiveAt: number): McpSession {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
  const session: McpSession = { transport, server: new McpServer({ name: 'test', version: '1' }), lastActiveAt, openRequests: 0 };
  transport.onclose = () => sessions.remove(sessionId);
  sessions.add(sessionId, session);
  return session;
}

describe('McpSessions', () => {
  it('closes sessions idle past the idle time, but never one with a request still open', async () => {
    const sessions = new McpSessions({ maxSessions: 2, idleMs: 1_000 });
    const now = Date.now();
    openSession(sessions, 'idle', now - 5_000);
    const streaming = openSession(sessions, 'streaming', now - 5_000);
    expect(sessions.hasRoom).toBe(false);
    // An open GET stream: the response closes only when the client leaves.
    const response = new EventEmitter();
    sessions.track(streaming, response);

    expect(sessions.closeIdle(now + 10)).toBe(1);
    await Promise.resolve();
    expect(sessions.get('idle')).toBeUndefined();
    expect(sessions.get('streaming')).toBe(streaming);
    expect(sessions.hasRoom).toBe(true);

    response.emit('close');
    expect(streaming.openRequests).toBe(0);
    expect(sessions.closeIdle(Date.now() + 2_000)).toBe(1);
    await sessions.closeAll();
    expect(sessions.size).toBe(0);
  });
});
