import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** One MCP session: its transport, its own server (tools bound to its caller) and when it was last used. */
export interface McpSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** The caller that opened it (the client address, TRUST_PROXY honoured): whose per-caller cap it counts against. */
  readonly callerKey: string;
  lastActiveAt: number;
  /** Start times of the session's requests still answering (a tool call, a resumed stream), oldest first. */
  readonly openRequestStarts: number[];
}

/** What a session needs of an HTTP response: to hear when it ends (an Express response is one). */
export interface ClosingResponse {
  once(event: 'close', listener: () => void): unknown;
}

export interface McpSessionsOptions {
  /** Sessions open at once, all callers together. */
  maxSessions: number;
  /** Sessions one caller may hold open at once. */
  maxSessionsPerCaller: number;
  /** A session with no request in flight for this long is closed by the sweep. */
  idleMs: number;
  /**
   * The longest a request keeps a session busy: a get_visibility_check wait (at most 50 s) plus margin.
   * A refusal's Retry-After counts on it: a busy session becomes idle within this time.
   */
  maxRequestMs?: number;
  /** Another caller's idle session is evicted to make room only once it has been idle this long. */
  minIdleBeforeEvictionMs?: number;
}

/** Why an initialize was refused: nothing could be freed. `retryAfterSeconds` is when something can. */
export interface SessionRefusal {
  status: 429 | 503;
  code: 'too_many_sessions' | 'sessions_full';
  message: string;
  hint: string;
  retryAfterSeconds: number;
}

export type SessionAdmission = { admitted: true; evicted: McpSession | undefined } | { admitted: false; refusal: SessionRefusal };

/** The defaults the service runs with; docs/mcp.md states them. */
export const DEFAULT_MAX_REQUEST_MS = 60_000;
export const DEFAULT_MIN_IDLE_BEFORE_EVICTION_MS = 60_000;

/**
 * The open sessions, keyed by session id. A session is added only once its initialize succeeded (the
 * transport's onsessioninitialized) and removed when its transport closes (DELETE, idle, eviction,
 * shutdown). Clients rarely close sessions, so room is made on demand: a caller at its cap loses its own
 * oldest idle session; a full service first takes the caller's own oldest idle session, then the
 * longest-idle session of anyone (idle at least a minute). Only when nothing is idle is an initialize
 * refused, with the time at which a session will be.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly maxRequestMs: number;
  private readonly minIdleBeforeEvictionMs: number;

  constructor(private readonly options: McpSessionsOptions) {
    this.maxRequestMs = options.maxRequestMs ?? DEFAULT_MAX_REQUEST_MS;
    this.minIdleBeforeEvictionMs = options.minIdleBeforeEvictionMs ?? DEFAULT_MIN_IDLE_BEFORE_EVICTION_MS;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions one caller holds open. */
  countFor(callerKey: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.callerKey === callerKey) count += 1;
    return count;
  }

  get(sessionId: string): McpSession | undefined {
    return this.sessions.get(sessionId);
  }

  add(sessionId: string, session: McpSession): void {
    this.sessions.set(sessionId, session);
  }

  remove(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Removes the session and closes its transport (this instance's copy of a session ended or gone idle elsewhere). */
  close(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session !== undefined) this.evict([sessionId, session]);
  }

  /**
   * Makes room for one more session of `callerKey`, evicting an idle session when a cap is reached, or
   * says why it cannot and when it can. Call right before creating the session.
   */
  admit(callerKey: string, now: number = Date.now()): SessionAdmission {
    const own = [...this.sessions.entries()].filter(([, session]) => session.callerKey === callerKey);
    if (own.length >= this.options.maxSessionsPerCaller) {
      const victim = this.oldestIdle(own);
      if (victim === undefined) {
        return {
          admitted: false,
          refusal: {
            status: 429,
            code: 'too_many_sessions',
            message: `This client address already has ${own.length} MCP sessions open, each answering a request (at most ${this.options.maxSessionsPerCaller} per caller).`,
            hint: 'Reuse an open session, or end one with DELETE /mcp, then initialize again.',
            retryAfterSeconds: seconds(Math.min(...own.map(([, session]) => this.idleFrom(session))) - now),
          },
        };
      }
      this.evict(victim);
      return { admitted: true, evicted: victim[1] };
    }
    if (this.sessions.size < this.options.maxSessions) return { admitted: true, evicted: undefined };
    const victim =
      this.oldestIdle(own) ??
      this.oldestIdle([...this.sessions.entries()].filter(([, session]) => now - session.lastActiveAt >= this.minIdleBeforeEvictionMs));
    if (victim !== undefined) {
      this.evict(victim);
      return { admitted: true, evicted: victim[1] };
    }
    // Nothing is evictable yet: the first session to become so is the answer.
    const firstEvictable = Math.min(...[...this.sessions.values()].map((session) => this.idleFrom(session) + this.minIdleBeforeEvictionMs));
    return {
      admitted: false,
      refusal: {
        status: 503,
        code: 'sessions_full',
        message: `The MCP server has ${this.sessions.size} sessions open, its maximum, and none has been idle long enough to be closed.`,
        hint: 'Initialize again after Retry-After seconds.',
        retryAfterSeconds: seconds(firstEvictable - now),
      },
    };
  }

  /**
   * Counts a request of the session as in flight until its response ends. A standing GET stream is not
   * tracked here: it carries nothing this server sends on its own, so it does not keep a session alive.
   */
  track(session: McpSession, response: ClosingResponse, now: () => number = Date.now): void {
    const startedAt = now();
    session.openRequestStarts.push(startedAt);
    session.lastActiveAt = startedAt;
    response.once('close', () => {
      const index = session.openRequestStarts.indexOf(startedAt);
      if (index >= 0) session.openRequestStarts.splice(index, 1);
      session.lastActiveAt = now();
    });
  }

  /** Marks the session used now without holding it busy (a standing GET stream opening). */
  touch(session: McpSession, now: number = Date.now()): void {
    session.lastActiveAt = now;
  }

  /** Closes the sessions idle for longer than the idle time; returns how many. */
  closeIdle(now: number = Date.now()): number {
    let closed = 0;
    for (const entry of [...this.sessions.entries()]) {
      const [, session] = entry;
      if (session.openRequestStarts.length > 0 || now - session.lastActiveAt < this.options.idleMs) continue;
      this.evict(entry);
      closed += 1;
    }
    return closed;
  }

  /** Closes every session (their transports remove them). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.transport.close()));
    this.sessions.clear();
  }

  /** The least recently used of these sessions with no request in flight. */
  private oldestIdle(entries: Array<[string, McpSession]>): [string, McpSession] | undefined {
    let oldest: [string, McpSession] | undefined;
    for (const entry of entries) {
      if (entry[1].openRequestStarts.length > 0) continue;
      if (oldest === undefined || entry[1].lastActiveAt < oldest[1].lastActiveAt) oldest = entry;
    }
    return oldest;
  }

  /** When the session is (or at the latest will be) without a request in flight. */
  private idleFrom(session: McpSession): number {
    const oldestRequest = session.openRequestStarts[0];
    return oldestRequest === undefined ? session.lastActiveAt : Math.max(...session.openRequestStarts) + this.maxRequestMs;
  }

  /** Removes the session at once (its slot is free now) and closes its transport; its client's next request answers 404. */
  private evict([sessionId, session]: [string, McpSession]): void {
    this.sessions.delete(sessionId);
    void session.transport.close().catch(() => undefined);
  }
}

function seconds(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}
