// The real service with DATABASE_URL on the test run's throwaway PostgreSQL cluster
// (scripts/pg/vitest-global-setup.ts): every port on PostgreSQL, no SQLite file, two instances on one
// database. Skipped, and saying so in its title, when the PostgreSQL binaries are missing.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditResponseSchema, createPgPool, readPgMigrations, type PgPool } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from './test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from './test-support/service.js';
import { startRelay } from './test-support/tcp-relay.js';

const PG_TEST_URL = process.env['VISIBILITY_TEST_DATABASE_URL'];
const SKIP_REASON = 'PostgreSQL mode tests skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql: apt-get install -y postgresql)';
const SESSION_SECRET = 'p'.repeat(40);

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? SKIP_REASON : 'the service with DATABASE_URL (PostgreSQL mode)', () => {
  let admin: PgPool;
  let database: PgPool;
  let databaseName: string;
  let databaseUrl: string;
  let site: FixtureSite;
  let first: TestService;
  let second: TestService;

  beforeAll(async () => {
    admin = createPgPool(PG_TEST_URL as string, { max: 1 });
    databaseName = `vis_service_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const url = new URL(PG_TEST_URL as string);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    database = createPgPool(databaseUrl, { max: 2 });
    site = await startFixtureSite(SAAS_SITE);
    const environment = { DATABASE_URL: databaseUrl, SESSION_SECRET, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`, TRUST_PROXY: 'loopback' };
    // Two instances starting together: the migrations run once, under the advisory lock.
    [first, second] = await Promise.all([
      startTestService(environment, undefined, { watchScheduler: false }),
      startTestService(environment, undefined, { watchScheduler: false }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await site?.close();
    await database?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin?.end();
  });

  it('refuses to start without SESSION_SECRET, naming it', async () => {
    await expect(startTestService({ DATABASE_URL: databaseUrl })).rejects.toThrow(/SESSION_SECRET is required when DATABASE_URL is set/);
  });

  it('migrates the database on start and keeps no SQLite file in DATA_DIR', async () => {
    const { rows } = await database.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    // every migration file applied, numbered 1 to N without a gap or a clash
    const files = readPgMigrations().map((migration) => migration.version);
    expect(files).toEqual(Array.from({ length: files.length }, (_unused, index) => index + 1));
    expect(rows.map((row) => row.version)).toEqual(files);
    for (const running of [first, second]) {
      expect(running.service.ports.kind).toBe('postgres');
      expect(existsSync(join(running.dataDir, 'visibility.sqlite'))).toBe(false);
      expect(() => running.service.store).toThrow(/PostgreSQL/);
    }
  });

  it('runs an audit on one instance, stores it in PostgreSQL, and reads it back on both', async () => {
    const result = await postJson(
      `${first.url}/api/audit`,
      { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', competitors: 'HubSpot, Salesforce' },
      { headers: { 'X-Forwarded-For': '203.0.113.40' } },
    );
    expect(result.status).toBe(200);
    const body = AuditResponseSchema.parse(result.body);
    expect(body.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);

    // The rows are in PostgreSQL: the audit, its provider calls (logged with their spend) and the rate-limit counter.
    const audits = await database.query<{ brand: string; mode: string }>('SELECT brand, mode FROM audits WHERE id = $1', [body.id]);
    expect(audits.rows).toEqual([{ brand: 'Pipedrive', mode: 'demo' }]);
    const calls = await database.query<{ calls: string }>('SELECT COUNT(*) AS calls FROM provider_calls');
    expect(Number(calls.rows[0]?.calls)).toBeGreaterThanOrEqual(3);
    const spend = await database.query<{ calls: string }>('SELECT COALESCE(SUM(calls), 0) AS calls FROM budget_spend');
    expect(Number(spend.rows[0]?.calls)).toBe(Number(calls.rows[0]?.calls));

    // The report key opens it on either instance (the same SESSION_SECRET signs it), with the same body.
    const key = new URL(body.reportUrl ?? '').searchParams.get('key') ?? '';
    const readings = await Promise.all([first, second].map(async (running) => {
      const response = await fetch(`${running.url}/api/audit/${body.id}?key=${key}`);
      return { status: response.status, body: (await response.json()) as { id: string; brand?: string; audit?: { brand: string } } };
    }));
    for (const reading of readings) {
      expect(reading.status).toBe(200);
      expect(reading.body.id).toBe(body.id);
    }
    expect(readings[1]?.body).toEqual(readings[0]?.body);

    // The map read goes through the awaited route (no SQLite fast path here) on the other instance.
    const map = await fetch(`${second.url}/api/audit/${body.id}/fanout-map`);
    expect(map.status).toBe(200);
    expect(await map.json()).toMatchObject({ ok: true, cached: false, status: 'not_started' });
    const unknown = await fetch(`${second.url}/api/audit/00000000-0000-4000-8000-000000000000/fanout-map`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'audit_not_found' });

    // A map measured through one instance is stored in PostgreSQL and read, cached, on the other.
    const measured = await postJson(`${first.url}/api/audit/${body.id}/fanout-map`, {}, { headers: { 'X-Forwarded-For': '203.0.113.40' } });
    expect(measured.status).toBe(200);
    expect(measured.body).toMatchObject({ ok: true, cached: false, map: { generation: 1 } });
    const stored = await fetch(`${second.url}/api/audit/${body.id}/fanout-map`);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(await stored.json()).toEqual({ ok: true, cached: true, map: measured.body.map });
    const jobs = await database.query<{ status: string }>('SELECT status FROM buyer_question_map_jobs WHERE audit_id = $1', [body.id]);
    expect(jobs.rows).toEqual([{ status: 'complete' }]);
    const revalidated = await fetch(`${second.url}/api/audit/${body.id}/fanout-map`, { headers: { 'If-None-Match': stored.headers.get('etag') ?? '' } });
    expect(revalidated.status).toBe(304);

    // The badge of an unknown token is the "not found" SVG, answered from PostgreSQL through Express.
    const badge = await fetch(`${second.url}/api/badge/${'b'.repeat(43)}`);
    expect(badge.status).toBe(404);
    expect(badge.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('answers 503 store_unavailable while PostgreSQL is unreachable, and recovers by itself when it is back', async () => {
    // A third instance reaches the database through a TCP relay this test can cut and restore.
    const target = new URL(databaseUrl);
    const relay = await startRelay(target.hostname, Number(target.port));
    const viaRelay = new URL(databaseUrl);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const third = await startTestService({ DATABASE_URL: viaRelay.toString(), SESSION_SECRET }, undefined, { watchScheduler: false });
    try {
      const unknownMap = `${third.url}/api/audit/00000000-0000-4000-8000-000000000000/fanout-map`;
      expect((await fetch(unknownMap)).status).toBe(404);

      await relay.cut();
      // Bounded, not timed: without the pool's connect deadline and the 503 this would hang or fail.
      const refused = await fetch(unknownMap, { signal: AbortSignal.timeout(8_000) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({ error: expect.any(String), code: 'store_unavailable', hint: expect.any(String), docs: 'http://visibility.test/developers' });
      const page = await fetch(`${third.url}/api/audit/00000000-0000-4000-8000-000000000000?key=${'k'.repeat(32)}`, { signal: AbortSignal.timeout(8_000) });
      expect(page.status).toBe(503);

      await relay.restore();
      const back = await fetch(unknownMap, { signal: AbortSignal.timeout(8_000) });
      expect(back.status).toBe(404);
      expect(await back.json()).toMatchObject({ code: 'audit_not_found' });
    } finally {
      await third.stop();
      await relay.close();
    }
  });
});
