import type { AccountStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

export interface AccountRecord {
  email: string;
  credits: number;
  createdAt: string;
}

/** SQL of accounts and their credits, the SQLite adapter of AccountStore; every change is one atomic statement. */
export class AccountRepository extends SqlRepository implements AccountStore {
  async getAccount(email: string): Promise<AccountRecord | undefined> {
    return this.readAccount(email);
  }

  private readAccount(email: string): AccountRecord | undefined {
    const row = this.statement('SELECT email, credits, created_at AS createdAt FROM accounts WHERE email = ?').get(email.toLowerCase()) as
      | AccountRecord
      | undefined;
    return row;
  }

  async ensureAccount(email: string, now: Date = new Date()): Promise<AccountRecord> {
    const at = now.toISOString();
    this.statement('INSERT INTO accounts (email, credits, created_at, updated_at) VALUES (?, 0, ?, ?) ON CONFLICT (email) DO NOTHING').run(
      email.toLowerCase(),
      at,
      at,
    );
    return this.readAccount(email) as AccountRecord;
  }

  async grantCredits(email: string, credits: number, now: Date = new Date()): Promise<number> {
    if (!Number.isInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive whole number');
    const at = now.toISOString();
    const row = this.statement(`
      INSERT INTO accounts (email, credits, created_at, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (email) DO UPDATE SET credits = credits + excluded.credits, updated_at = excluded.updated_at
      RETURNING credits
    `).get(email.toLowerCase(), credits, at, at) as { credits: number };
    return row.credits;
  }

  async spendCredit(email: string, now: Date = new Date()): Promise<boolean> {
    return this.spendCreditNow(email, now);
  }

  async refundCredit(email: string, now: Date = new Date()): Promise<void> {
    this.refundCreditNow(email, now);
  }

  /**
   * spendCredit for a caller inside one SQLite transaction of the same database (the map re-run's, which
   * starts the job and pays for it together): synchronous, so it joins that transaction.
   */
  spendCreditNow(email: string, now: Date = new Date()): boolean {
    const result = this.statement('UPDATE accounts SET credits = credits - 1, updated_at = ? WHERE email = ? AND credits > 0').run(
      now.toISOString(),
      email.toLowerCase(),
    );
    return result.changes === 1;
  }

  /** refundCredit inside one SQLite transaction of the same database (a cancelled re-run's). */
  refundCreditNow(email: string, now: Date = new Date()): void {
    this.statement('UPDATE accounts SET credits = credits + 1, updated_at = ? WHERE email = ?').run(now.toISOString(), email.toLowerCase());
  }
}
