import type { VisibilityRunDependencies, WatchTracker } from '@visibility/core';

/** What one MCP session's server needs: the shared run core, who is calling, and what to call itself. */
export interface McpServerDependencies {
  /** The service's run core (audit, map, run store, limiter, tracker), shared by every session. */
  runs: VisibilityRunDependencies;
  /** Whose per-caller limits a start counts against: the key of the address that opened the session. */
  callerKey: string;
  /**
   * The report's own public page for an audit (`{BASE_URL}/report/{auditId}?key=…`, the site's signed
   * private link); the composition root holds the secret that signs it.
   */
  reportUrl(auditId: string): string;
  /** Reported as serverInfo.version. */
  serverVersion: string;
  /**
   * Watches for get_visibility_history: the service's tracker, and the signed-in owner of this session (the
   * session cookie sent when it was opened), or undefined when it is not signed in.
   */
  watches?: { tracker: WatchTracker; ownerEmail: string | undefined } | undefined;
}
