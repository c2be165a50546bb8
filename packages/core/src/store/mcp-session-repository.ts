import type { McpSessionStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

/**
 * One MCP session as the store keeps it: enough to rebuild it on any instance (who opened it, and what
 * its client sent in initialize), and whether it is still open. Times are ISO 8601 UTC strings.
 */
export interface McpSessionRecord {
  id: string;
  /** The caller that opened it (client address, TRUST_PROXY honoured): whose limits its tools count. */
  callerKey: string;
  /** The signed-in owner of the request that opened it, for get_visibility_history (watches are private). */
  ownerEmail: string | undefined;
  /** The protocol version the client asked for in initialize. */
  protocolVersion: string;
  /** initialize's `clientInfo` and `capabilities`, as the client sent them. */
  clientInfo: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  createdAt: string;
  /** The last request of the session on any instance. */
  lastSeenAt: string;
  /** When it was ended (DELETE, or evicted to make room); undefined while open. */
  endedAt: string | undefined;
}

export type NewMcpSession = Omit<McpSessionRecord, 'lastSeenAt' | 'endedAt'>;

/** An MCP session as either driver returns its row. */
export interface McpSessionRow {
  id: string;
  caller_key: string;
  owner_email: string | null;
  protocol_version: string;
  client_info: string;
  client_capabilities: string;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

export function mcpSessionFromRow(row: McpSessionRow): McpSessionRecord {
  return {
    id: row.id,
    callerKey: row.caller_key,
    ownerEmail: row.owner_email ?? undefined,
    protocolVersion: row.protocol_version,
    clientInfo: JSON.parse(row.client_info) as Record<string, unknown>,
    clientCapabilities: JSON.parse(row.client_capabilities) as Record<string, unknown>,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    endedAt: row.ended_at ?? undefined,
  };
}

/** The values of a new session's row, in the column order both adapters insert. */
export function mcpSessionValues(session: NewMcpSession): Array<string | null> {
  return [
    session.id,
    session.callerKey,
    session.ownerEmail ?? null,
    session.protocolVersion,
    JSON.stringify(session.clientInfo),
    JSON.stringify(session.clientCapabilities),
    session.createdAt,
    session.createdAt,
  ];
}

/**
 * SQL of the MCP sessions (migration 12's `mcp_sessions`), the SQLite adapter of McpSessionStore
 * (ports.ts). Times are ISO 8601 UTC strings, so they compare as text.
 */
export class McpSessionRepository extends SqlRepository implements McpSessionStore {
  async insertSession(session: NewMcpSession): Promise<void> {
    this.statement(
      `INSERT INTO mcp_sessions (id, caller_key, owner_email, protocol_version, client_info, client_capabilities, created_at, last_seen_at, ended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    ).run(...mcpSessionValues(session));
  }

  async findOpenSession(id: string, seenSince: Date): Promise<McpSessionRecord | undefined> {
    const row = this.statement('SELECT * FROM mcp_sessions WHERE id = ? AND ended_at IS NULL AND last_seen_at >= ?').get(id, seenSince.toISOString()) as
      | McpSessionRow
      | undefined;
    return row === undefined ? undefined : mcpSessionFromRow(row);
  }

  async getSession(id: string): Promise<McpSessionRecord | undefined> {
    const row = this.statement('SELECT * FROM mcp_sessions WHERE id = ?').get(id) as McpSessionRow | undefined;
    return row === undefined ? undefined : mcpSessionFromRow(row);
  }

  async touchSession(id: string, at: Date, seenSince: Date): Promise<boolean> {
    // MAX keeps the later time when two instances touch out of order.
    return (
      this.statement('UPDATE mcp_sessions SET last_seen_at = MAX(last_seen_at, ?) WHERE id = ? AND ended_at IS NULL AND last_seen_at >= ?').run(
        at.toISOString(),
        id,
        seenSince.toISOString(),
      ).changes > 0
    );
  }

  async endSession(id: string, at: Date): Promise<boolean> {
    return this.statement('UPDATE mcp_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(at.toISOString(), id).changes > 0;
  }

  async deleteSessionsBefore(before: Date): Promise<number> {
    const cutoff = before.toISOString();
    return this.statement('DELETE FROM mcp_sessions WHERE ended_at < ? OR last_seen_at < ?').run(cutoff, cutoff).changes;
  }
}
