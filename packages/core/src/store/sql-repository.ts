import type { Database, Statement } from 'better-sqlite3';

/** What every repository shares: one database and a cache of its prepared statements. */
export abstract class SqlRepository {
  private readonly prepared = new Map<string, Statement>();

  constructor(protected readonly database: Database) {}

  /** Prepares each statement once, on first use, so a partly migrated database can still be opened. */
  protected statement(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs work in one IMMEDIATE transaction: the write lock is taken before the first read, so a
   * check-then-write (a rate-limit count, a budget reservation) stays exact even when several
   * processes share the database file.
   */
  transaction<T>(work: () => T): T {
    return this.database.transaction(work).immediate();
  }
}
