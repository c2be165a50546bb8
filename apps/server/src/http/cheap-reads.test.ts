import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAuditToken } from '@visibility/core';
import { startTestService, type TestService } from '../test-support/service.js';

// GET /api/badge/{token} is answered before Express (cheap-reads.ts). The same request with an
// If-Modified-Since header goes through Express (the fast path leaves conditional requests to it) and,
// with no Last-Modified on a badge, gets the ordinary 200: so each pair below is the fast path and the
// Express route answering the same request, and must match byte for byte but the Date.

let running: TestService;
beforeAll(async () => {
  running = await startTestService({ SESSION_SECRET: 'cheap-reads-test-secret-0123456789abcdef' });
});
afterAll(async () => {
  await running.stop();
});

function badgeToken(): string {
  const id = randomUUID();
  running.service.store.auditRepository.insertAudit({
    id,
    createdAt: new Date(Date.now() - 86_400_000).toISOString(),
    brand: 'Acme & Sons',
    brandKey: 'acme sons',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: 'owner@acme.example',
    mode: 'live',
    measured: true,
    score: 62,
    response: { id, audit: { score: 62 } },
  });
  return mintAuditToken(running.service.store.tokenRepository, { auditId: id, kind: 'badge', createdBy: 'owner@acme.example' });
}

interface Raw {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  const { port } = new URL(running.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Header names and values in wire order, without Date. */
function headerLines(raw: Raw): string[] {
  const lines: string[] = [];
  for (let index = 0; index < raw.rawHeaders.length; index += 2) {
    if (raw.rawHeaders[index]?.toLowerCase() !== 'date') lines.push(`${raw.rawHeaders[index]}: ${raw.rawHeaders[index + 1]}`);
  }
  return lines;
}

/** The access-log line of a request id, without its time and duration. */
function logLine(requestId: string): Record<string, unknown> {
  const line = running.logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((record) => record.requestId === requestId && record.msg === 'request');
  if (line === undefined) throw new Error(`no access-log line for ${requestId}`);
  const { time: _time, durationMs, ...rest } = line;
  expect(typeof durationMs).toBe('number');
  return rest;
}

const CONDITIONAL = { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' };

describe('GET /api/badge/{token} before Express', () => {
  for (const [label, path] of [
    ['a fresh badge', () => `/api/badge/${badgeToken()}`],
    ['a fresh badge with a query string', () => `/api/badge/${badgeToken()}?style=flat`],
    ['an unknown token (404 SVG)', () => `/api/badge/vb_${'A'.repeat(43)}`],
    ['a malformed token (404 SVG)', () => '/api/badge/nonsense'],
  ] as const) {
    it(`answers ${label} exactly as the Express route does`, async () => {
      const url = path();
      const fast = await get(url, { 'x-request-id': 'fast-path-0001' });
      const express = await get(url, { 'x-request-id': 'fast-path-0001', ...CONDITIONAL });
      expect(fast.status).toBe(express.status);
      expect(headerLines(fast)).toEqual(headerLines(express));
      expect(fast.body.equals(express.body)).toBe(true);
      expect(fast.body.toString('utf8').startsWith('<svg')).toBe(true);
    });
  }

  it('writes the same access-log line, and a new request id when the incoming one is not plain', async () => {
    const url = `/api/badge/${badgeToken()}`;
    await get(url, { 'x-request-id': 'fast-path-log-1' });
    await get(url, { 'x-request-id': 'fast-path-log-2', ...CONDITIONAL });
    expect({ ...logLine('fast-path-log-1'), requestId: 'x' }).toEqual({ ...logLine('fast-path-log-2'), requestId: 'x' });
    const minted = await get(url, { 'x-request-id': 'no good' });
    const requestId = headerLines(minted).find((line) => line.startsWith('X-Request-Id: '))?.slice('X-Request-Id: '.length) ?? '';
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(logLine(requestId)).toMatchObject({ method: 'GET', path: url, status: 200 });
  });

  it('leaves HEAD, other paths and letter case to Express, which still answers them', async () => {
    const token = badgeToken();
    const head = await get(`/api/badge/${token}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get(`/api/badge/${token}/`, {})).status).toBe(200);
    expect((await get(`/API/BADGE/${token}`, {})).status).toBe(200);
    expect((await get('/api/badge/%E0%A4%A', {})).status).toBe(404);
  });
});
