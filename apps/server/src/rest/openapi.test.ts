import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../test-support/service.js';
import { buildOpenApiDocument } from './openapi.js';

const BASE_URL = 'https://visibility.test';
const document = buildOpenApiDocument(BASE_URL) as any;
const REDOCLY = fileURLToPath(new URL('../../../../node_modules/.bin/redocly', import.meta.url));

describe('/openapi.json', () => {
  it('is OpenAPI 3.1.0, interface version 1.0.0, with an empty global security requirement', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.security).toEqual([]);
  });

  it('describes the seven public operations, the watch operations and nothing private', () => {
    const operationIds: string[] = [];
    for (const pathItem of Object.values(document.paths) as any[]) {
      for (const method of ['get', 'post', 'put', 'delete', 'patch']) if (pathItem[method]) operationIds.push(pathItem[method].operationId);
    }
    expect(operationIds.sort()).toEqual(
      [
        'checkBrandRecognition',
        'getBuyerQuestionMap',
        'getVisibilityAudit',
        'getVisibilityBadge',
        'runRepeatedBuyerQuestion',
        'startBuyerQuestionMap',
        'startVisibilityAudit',
        'createWatch',
        'listWatches',
        'getWatch',
        'updateWatch',
        'deleteWatch',
        'runWatchNow',
        'getWatchRun',
        'getWatchHistory',
      ].sort(),
    );
    expect(Object.keys(document.paths).some((path) => path.includes('account') || path.includes('auth'))).toBe(false);
  });

  it('offers the sessionCookie scheme optionally on startBuyerQuestionMap and getVisibilityAudit, and requires it on every watch operation only', () => {
    expect(document.components.securitySchemes.sessionCookie).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'sb-access-token' }),
    );
    const fanoutMap = document.paths['/api/audit/{auditId}/fanout-map'];
    expect(fanoutMap.post.security).toEqual([{}, { sessionCookie: [] }]);
    expect(document.paths['/api/audit/{auditId}'].get.security).toEqual([{}, { sessionCookie: [] }]);
    const watchPaths = Object.keys(document.paths).filter((path) => path.startsWith('/api/watches'));
    expect(watchPaths.length).toBe(5);
    for (const path of watchPaths) {
      for (const method of ['get', 'post', 'patch', 'delete']) {
        if (document.paths[path][method]) expect(document.paths[path][method].security).toEqual([{ sessionCookie: [] }]);
      }
    }
    const public_ = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !path.startsWith('/api/watches')));
    const others = JSON.stringify({ ...public_, '/api/audit/{auditId}/fanout-map': { get: fanoutMap.get }, '/api/audit/{auditId}': {} });
    expect(others).not.toContain('sessionCookie');
  });

  it('carries the bounds the handlers validate with, generated from the same zod schemas', () => {
    const schemas = document.components.schemas;
    expect(schemas.RepeatRequest.properties.question).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(schemas.RepeatRequest.required).toEqual(['question']);
    expect(schemas.CheckRequest.properties.brand.maxLength).toBe(80);
    expect(schemas.AuditRequest.properties.competitors.maxLength).toBe(220);
    expect(schemas.CheckResponse.properties.recommendations.maxItems).toBe(8);
    expect([...schemas.ApiError.required].sort()).toEqual(['code', 'docs', 'error', 'hint']);
  });

  it('declares Retry-After on every 429 and the rate-limit headers where the spec has them', () => {
    for (const pathItem of Object.values(document.paths) as any[]) {
      for (const operation of [pathItem.get, pathItem.post].filter(Boolean)) {
        if (operation.responses['429']) expect(operation.responses['429'].headers['Retry-After']).toBeDefined();
      }
    }
    expect(document.paths['/api/tools/repeat'].post.responses['200'].headers['X-RateLimit-Remaining']).toBeDefined();
    expect(document.paths['/api/audit'].post.responses['200'].headers['X-RateLimit-Reset']).toBeDefined();
  });

  it('matches the reviewed snapshot (a change to the public API must be deliberate)', async () => {
    await expect(JSON.stringify(document, null, 2)).toMatchFileSnapshot('./__snapshots__/openapi.json');
  });

  it('passes redocly lint with no errors or warnings', () => {
    const folder = mkdtempSync(join(tmpdir(), 'visibility-openapi-'));
    try {
      const file = join(folder, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const result = spawnSync(REDOCLY, ['lint', file, '--format=json'], {
        cwd: folder,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      });
      const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number } };
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(result.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('is served at the site root with CORS, the same document the builder makes', async () => {
    const running = await startTestService({ BASE_URL });
    try {
      const response = await fetch(`${running.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
    } finally {
      await running.stop();
    }
  });
});
