import type { SignInStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

/** One stored sign-in link: only the SHA-256 hash of its token is kept, never the token itself. */
export interface SignInLinkRecord {
  tokenHash: string;
  email: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | undefined;
}

/** A sign-in link as either driver returns its row. */
export interface SignInLinkRow {
  token_hash: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export function signInLinkFromRow(row: SignInLinkRow): SignInLinkRecord {
  return { tokenHash: row.token_hash, email: row.email, createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at ?? undefined };
}

/**
 * SQL of the one-time sign-in links (migration 7's `sign_in_links`), the SQLite adapter of SignInStore
 * (ports.ts). Times are ISO 8601 UTC strings, so they compare as text.
 */
export class SignInRepository extends SqlRepository implements SignInStore {
  async insertLink(link: { tokenHash: string; email: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    this.statement('INSERT INTO sign_in_links (token_hash, email, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)').run(
      link.tokenHash,
      link.email.toLowerCase(),
      link.createdAt.toISOString(),
      link.expiresAt.toISOString(),
    );
  }

  async consumeLink(tokenHash: string, now: Date = new Date()): Promise<string | undefined> {
    const at = now.toISOString();
    const row = this.statement(
      'UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email',
    ).get(at, tokenHash, at) as { email: string } | undefined;
    return row?.email;
  }

  async getLink(tokenHash: string): Promise<SignInLinkRecord | undefined> {
    const row = this.statement('SELECT * FROM sign_in_links WHERE token_hash = ?').get(tokenHash) as SignInLinkRow | undefined;
    return row === undefined ? undefined : signInLinkFromRow(row);
  }

  async deleteExpiredLinks(before: Date): Promise<number> {
    return this.statement('DELETE FROM sign_in_links WHERE expires_at < ?').run(before.toISOString()).changes;
  }
}
