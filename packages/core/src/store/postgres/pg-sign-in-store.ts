import type { SignInStore } from '../ports.js';
import { signInLinkFromRow, type SignInLinkRecord, type SignInLinkRow } from '../sign-in-repository.js';
import type { PgPool } from './pool.js';

/** The PostgreSQL adapter of SignInStore (migration 008): a link is used by one conditional UPDATE, so it signs in once. */
export class PgSignInStore implements SignInStore {
  constructor(private readonly pool: PgPool) {}

  async insertLink(link: { tokenHash: string; email: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.pool.query('INSERT INTO sign_in_links (token_hash, email, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, NULL)', [
      link.tokenHash,
      link.email.toLowerCase(),
      link.createdAt.toISOString(),
      link.expiresAt.toISOString(),
    ]);
  }

  async consumeLink(tokenHash: string, now: Date = new Date()): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ email: string }>(
      'UPDATE sign_in_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING email',
      [now.toISOString(), tokenHash],
    );
    return rows[0]?.email;
  }

  async getLink(tokenHash: string): Promise<SignInLinkRecord | undefined> {
    const { rows } = await this.pool.query<SignInLinkRow>('SELECT token_hash, email, created_at, expires_at, used_at FROM sign_in_links WHERE token_hash = $1', [tokenHash]);
    return rows[0] === undefined ? undefined : signInLinkFromRow(rows[0]);
  }

  async deleteExpiredLinks(before: Date): Promise<number> {
    return (await this.pool.query('DELETE FROM sign_in_links WHERE expires_at < $1', [before.toISOString()])).rowCount ?? 0;
  }
}
