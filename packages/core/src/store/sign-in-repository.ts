import { SqlRepository } from './sql-repository.js';

/** One stored sign-in link: only the SHA-256 hash of its token is kept, never the token itself. */
export interface SignInLinkRecord {
  tokenHash: string;
  email: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | undefined;
}

interface SignInLinkRow {
  token_hash: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** SQL of the one-time sign-in links (migration 7's `sign_in_links`). Times are ISO 8601 UTC strings, so they compare as text. */
export class SignInRepository extends SqlRepository {
  /** Stores a new link by its token hash (emails are kept lower-cased). */
  insertLink(link: { tokenHash: string; email: string; createdAt: Date; expiresAt: Date }): void {
    this.statement('INSERT INTO sign_in_links (token_hash, email, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)').run(
      link.tokenHash,
      link.email.toLowerCase(),
      link.createdAt.toISOString(),
      link.expiresAt.toISOString(),
    );
  }

  /**
   * Marks an unused, unexpired link used and returns its email; undefined when the link is unknown,
   * expired or already used. One UPDATE, so two concurrent uses of the same link cannot both succeed.
   */
  consumeLink(tokenHash: string, now: Date = new Date()): string | undefined {
    const at = now.toISOString();
    const row = this.statement(
      'UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email',
    ).get(at, tokenHash, at) as { email: string } | undefined;
    return row?.email;
  }

  /** Reads one link by its token hash (for tests and diagnostics). */
  getLink(tokenHash: string): SignInLinkRecord | undefined {
    const row = this.statement('SELECT * FROM sign_in_links WHERE token_hash = ?').get(tokenHash) as SignInLinkRow | undefined;
    if (row === undefined) return undefined;
    return { tokenHash: row.token_hash, email: row.email, createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at ?? undefined };
  }

  /** Deletes links that expired before `before` (used or not: they can never sign anyone in again); returns how many. */
  deleteExpiredLinks(before: Date): number {
    return this.statement('DELETE FROM sign_in_links WHERE expires_at < ?').run(before.toISOString()).changes;
  }
}
