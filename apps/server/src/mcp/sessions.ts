import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One MCP session: its transport, its own server (tools bound to its caller) and when it was last used. */
export interface McpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  lastActiveAt: number;
  /** Requests of the session still answering (an open GET stream, a waiting tool call). */
  openRequests: number;
}

/** What a session needs of an HTTP response: to hear when it ends (an Express response is one). */
export interface ClosingResponse {
  once(event: 'close', listener: () => void): unknown;
}

export interface McpSessionsOptions {
  /** Sessions open at once; the next initialize is refused until one ends. */
  maxSessions: number;
  /** A session with no open request for this long is closed. */
  idleMs: number;
}

/**
 * The open sessions, keyed by session id. A session is added only once its initialize succeeded (the
 * transport's onsessioninitialized) and removed when its transport closes (DELETE, idle, shutdown).
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();

  constructor(private readonly options: McpSessionsOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Whether another session may open now. */
  get hasRoom(): boolean {
    return this.sessions.size < this.options.maxSessions;
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

  /** Counts a request of the session as open until its response ends. */
  track(session: McpSession, response: ClosingResponse): void {
    session.openRequests += 1;
    session.lastActiveAt = Date.now();
    response.once('close', () => {
      session.openRequests -= 1;
      session.lastActiveAt = Date.now();
    });
  }

  /** Closes the sessions idle for longer than the idle time; returns how many. */
  closeIdle(now: number = Date.now()): number {
    let closed = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.openRequests > 0 || now - session.lastActiveAt < this.options.idleMs) continue;
      void session.transport.close();
      closed += 1;
    }
    return closed;
  }

  /** Closes every session (their transports remove them). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((session) => session.transport.close()));
    this.sessions.clear();
  }
}
