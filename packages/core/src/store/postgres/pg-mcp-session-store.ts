import { mcpSessionFromRow, mcpSessionValues, type McpSessionRecord, type McpSessionRow, type NewMcpSession } from '../mcp-session-repository.js';
import type { McpSessionStore } from '../ports.js';
import type { PgPool } from './pool.js';

/** The PostgreSQL adapter of McpSessionStore (migration 011): each operation is one statement. */
export class PgMcpSessionStore implements McpSessionStore {
  constructor(private readonly pool: PgPool) {}

  async insertSession(session: NewMcpSession): Promise<void> {
    await this.pool.query(
      `INSERT INTO mcp_sessions (id, caller_key, owner_email, protocol_version, client_info, client_capabilities, created_at, last_seen_at, ended_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL)`,
      mcpSessionValues(session),
    );
  }

  async findOpenSession(id: string, seenSince: Date): Promise<McpSessionRecord | undefined> {
    const { rows } = await this.pool.query<McpSessionRow>('SELECT * FROM mcp_sessions WHERE id = $1 AND ended_at IS NULL AND last_seen_at >= $2', [
      id,
      seenSince.toISOString(),
    ]);
    return rows[0] === undefined ? undefined : mcpSessionFromRow(rows[0]);
  }

  async getSession(id: string): Promise<McpSessionRecord | undefined> {
    const { rows } = await this.pool.query<McpSessionRow>('SELECT * FROM mcp_sessions WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : mcpSessionFromRow(rows[0]);
  }

  async touchSession(id: string, at: Date, seenSince: Date): Promise<boolean> {
    // GREATEST keeps the later time when two instances touch out of order.
    const { rowCount } = await this.pool.query(
      'UPDATE mcp_sessions SET last_seen_at = GREATEST(last_seen_at, $1) WHERE id = $2 AND ended_at IS NULL AND last_seen_at >= $3',
      [at.toISOString(), id, seenSince.toISOString()],
    );
    return (rowCount ?? 0) > 0;
  }

  async endSession(id: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE mcp_sessions SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL', [at.toISOString(), id]);
    return (rowCount ?? 0) > 0;
  }

  async deleteSessionsBefore(before: Date): Promise<number> {
    const cutoff = before.toISOString();
    return (await this.pool.query('DELETE FROM mcp_sessions WHERE ended_at < $1 OR last_seen_at < $1', [cutoff])).rowCount ?? 0;
  }
}
