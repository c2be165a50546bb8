import { SqlRepository } from './sql-repository.js';

export interface AccountRecord {
  email: string;
  credits: number;
  createdAt: string;
}

/** SQL of accounts and their credits; every change is one atomic statement. */
export class AccountRepository extends SqlRepository {
  /** Reads an account (emails are kept lower-cased). */
  getAccount(email: string): AccountRecord | undefined {
    const row = this.statement('SELECT email, credits, created_at AS createdAt FROM accounts WHERE email = ?').get(email.toLowerCase()) as
      | AccountRecord
      | undefined;
    return row;
  }

  /** Creates the account if it does not exist yet. */
  ensureAccount(email: string, now: Date = new Date()): AccountRecord {
    const at = now.toISOString();
    this.statement('INSERT INTO accounts (email, credits, created_at, updated_at) VALUES (?, 0, ?, ?) ON CONFLICT (email) DO NOTHING').run(
      email.toLowerCase(),
      at,
      at,
    );
    return this.getAccount(email) as AccountRecord;
  }

  /** Adds credits (creating the account); returns the new balance. */
  grantCredits(email: string, credits: number, now: Date = new Date()): number {
    if (!Number.isInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive whole number');
    const at = now.toISOString();
    const row = this.statement(`
      INSERT INTO accounts (email, credits, created_at, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (email) DO UPDATE SET credits = credits + excluded.credits, updated_at = excluded.updated_at
      RETURNING credits
    `).get(email.toLowerCase(), credits, at, at) as { credits: number };
    return row.credits;
  }

  /** Spends one credit if there is one, atomically: true when spent, false when the balance was 0. */
  spendCredit(email: string, now: Date = new Date()): boolean {
    const result = this.statement('UPDATE accounts SET credits = credits - 1, updated_at = ? WHERE email = ? AND credits > 0').run(
      now.toISOString(),
      email.toLowerCase(),
    );
    return result.changes === 1;
  }

  /** Gives back a credit spent for work that then could not run. */
  refundCredit(email: string, now: Date = new Date()): void {
    this.statement('UPDATE accounts SET credits = credits + 1, updated_at = ? WHERE email = ?').run(now.toISOString(), email.toLowerCase());
  }
}
