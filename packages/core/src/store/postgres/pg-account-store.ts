import type { AccountRecord } from '../account-repository.js';
import type { AccountStore } from '../ports.js';
import type { PgPool } from './pool.js';

/** The PostgreSQL adapter of AccountStore: every change is one statement (a spend is a conditional UPDATE). */
export class PgAccountStore implements AccountStore {
  constructor(private readonly pool: PgPool) {}

  async getAccount(email: string): Promise<AccountRecord | undefined> {
    const { rows } = await this.pool.query<AccountRecord>('SELECT email, credits, created_at AS "createdAt" FROM accounts WHERE email = $1', [email.toLowerCase()]);
    return rows[0];
  }

  async ensureAccount(email: string, now: Date = new Date()): Promise<AccountRecord> {
    const at = now.toISOString();
    await this.pool.query('INSERT INTO accounts (email, credits, created_at, updated_at) VALUES ($1, 0, $2, $2) ON CONFLICT (email) DO NOTHING', [email.toLowerCase(), at]);
    return (await this.getAccount(email)) as AccountRecord;
  }

  async grantCredits(email: string, credits: number, now: Date = new Date()): Promise<number> {
    if (!Number.isInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive whole number');
    const at = now.toISOString();
    const { rows } = await this.pool.query<{ credits: number }>(
      `INSERT INTO accounts (email, credits, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (email) DO UPDATE SET credits = accounts.credits + EXCLUDED.credits, updated_at = EXCLUDED.updated_at
       RETURNING credits`,
      [email.toLowerCase(), credits, at],
    );
    return rows[0]?.credits ?? 0;
  }

  async spendCredit(email: string, now: Date = new Date()): Promise<boolean> {
    const result = await this.pool.query('UPDATE accounts SET credits = credits - 1, updated_at = $1 WHERE email = $2 AND credits > 0', [
      now.toISOString(),
      email.toLowerCase(),
    ]);
    return result.rowCount === 1;
  }

  async refundCredit(email: string, now: Date = new Date()): Promise<void> {
    await this.pool.query('UPDATE accounts SET credits = credits + 1, updated_at = $1 WHERE email = $2', [now.toISOString(), email.toLowerCase()]);
  }
}
