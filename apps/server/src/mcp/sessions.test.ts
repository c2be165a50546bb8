import { EventEmitter } from 'node:events';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { McpSessions, type McpSession } from './sessions.js';

const T0 = 1_700_000_000_000;

/** A real transport and server, registered the way mcp-routes.ts does: removed from the map when closed. */
function openSession(sessions: McpSessions, sessionId: string, callerKey: string, lastActiveAt: number): McpSession {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
  const session: McpSession = { transport, server: new McpServer({ name: 'test', version: '1' }), callerKey, lastActiveAt, openRequestStarts: [] };
  transport.onclose = () => {
    if (sessions.get(sessionId) === session) sessions.remove(sessionId);
  };
  sessions.add(sessionId, session);
  return session;
}

/** A request of the session held open (a tool call waiting) until its response closes. */
function busy(sessions: McpSessions, session: McpSession, at: number): EventEmitter {
  const response = new EventEmitter();
  sessions.track(session, response, () => at);
  return response;
}

describe('McpSessions', () => {
  it('closes sessions idle past the idle time, but never one with a request in flight', async () => {
    const sessions = new McpSessions({ maxSessions: 10, maxSessionsPerCaller: 10, idleMs: 600_000 });
    openSession(sessions, 'idle', 'a', T0);
    const waiting = openSession(sessions, 'waiting', 'a', T0);
    const response = busy(sessions, waiting, T0);

    expect(sessions.closeIdle(T0 + 599_999)).toBe(0);
    expect(sessions.closeIdle(T0 + 600_000)).toBe(1);
    expect(sessions.get('idle')).toBeUndefined();
    expect(sessions.get('waiting')).toBe(waiting);

    response.emit('close');
    expect(waiting.openRequestStarts).toEqual([]);
    expect(sessions.closeIdle(waiting.lastActiveAt + 600_000)).toBe(1);
    await sessions.closeAll();
    expect(sessions.size).toBe(0);
  });

  it('closes one session by id at once, its transport too (a copy of a session ended on another instance)', async () => {
    const sessions = new McpSessions({ maxSessions: 10, maxSessionsPerCaller: 10, idleMs: 600_000 });
    const ended = openSession(sessions, 'ended', 'a', T0);
    const kept = openSession(sessions, 'kept', 'a', T0);
    let closed = false;
    const onclose = ended.transport.onclose;
    ended.transport.onclose = () => {
      closed = true;
      onclose?.();
    };
    sessions.close('ended');
    sessions.close('never-held');
    expect(sessions.get('ended')).toBeUndefined();
    expect(sessions.get('kept')).toBe(kept);
    expect(sessions.size).toBe(1);
    await Promise.resolve();
    expect(closed).toBe(true);
    await sessions.closeAll();
  });

  it("makes room for a caller at its cap by closing that caller's oldest idle session, never another caller's", () => {
    const sessions = new McpSessions({ maxSessions: 100, maxSessionsPerCaller: 3, idleMs: 600_000 });
    const other = openSession(sessions, 'other', 'b', T0 - 1_000_000);
    const oldest = openSession(sessions, 'a1', 'a', T0 + 1);
    openSession(sessions, 'a2', 'a', T0 + 2);
    openSession(sessions, 'a3', 'a', T0 + 3);
    busy(sessions, oldest, T0 + 4); // the oldest is answering a call: the next oldest idle goes

    const admission = sessions.admit('a', T0 + 5);
    expect(admission).toMatchObject({ admitted: true });
    expect(admission.admitted && admission.evicted?.callerKey).toBe('a');
    expect(sessions.get('a2')).toBeUndefined();
    expect(sessions.get('a1')).toBe(oldest);
    expect(sessions.get('other')).toBe(other);
    expect(sessions.countFor('a')).toBe(2);
  });

  it('refuses with 429 only when every session of the caller is answering, and Retry-After is when one must be idle', () => {
    const sessions = new McpSessions({ maxSessions: 100, maxSessionsPerCaller: 2, idleMs: 600_000, maxRequestMs: 60_000 });
    busy(sessions, openSession(sessions, 'a1', 'a', T0), T0);
    busy(sessions, openSession(sessions, 'a2', 'a', T0), T0 + 20_000);

    const refused = sessions.admit('a', T0 + 30_000);
    expect(refused).toMatchObject({ admitted: false, refusal: { status: 429, code: 'too_many_sessions' } });
    // a1's call started at T0 and ends within 60 s: 30 s from now.
    expect(!refused.admitted && refused.refusal.retryAfterSeconds).toBe(30);
    expect(sessions.size).toBe(2);
    // Another caller is not affected by a's cap.
    expect(sessions.admit('b', T0 + 30_000)).toMatchObject({ admitted: true, evicted: undefined });
  });

  it("when full, takes the caller's own idle session first, then the longest-idle session idle a minute, else 503 with when one will be", () => {
    const sessions = new McpSessions({ maxSessions: 3, maxSessionsPerCaller: 50, idleMs: 600_000, minIdleBeforeEvictionMs: 60_000 });
    openSession(sessions, 'b1', 'b', T0);
    openSession(sessions, 'b2', 'b', T0 + 10_000);
    const own = openSession(sessions, 'a1', 'a', T0 + 20_000);

    // a's own idle session goes first, though b's are older.
    expect(sessions.admit('a', T0 + 21_000)).toMatchObject({ admitted: true, evicted: own });
    openSession(sessions, 'a2', 'a', T0 + 21_000);
    busy(sessions, sessions.get('a2') as McpSession, T0 + 21_000);

    // c has nothing of its own and nobody has been idle a minute: refused until b1 has been.
    const refused = sessions.admit('c', T0 + 30_000);
    expect(refused).toMatchObject({ admitted: false, refusal: { status: 503, code: 'sessions_full', retryAfterSeconds: 30 } });

    // A minute after b1's last use, it is the one closed for c.
    const admitted = sessions.admit('c', T0 + 60_000);
    expect(admitted).toMatchObject({ admitted: true });
    expect(admitted.admitted && admitted.evicted?.callerKey).toBe('b');
    expect(sessions.get('b1')).toBeUndefined();
    expect(sessions.get('b2')).toBeDefined();
  });
});
