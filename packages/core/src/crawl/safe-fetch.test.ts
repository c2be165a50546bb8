import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, SafeFetchError } from './safe-fetch.js';
import { startFixtureServer, type FixtureServer } from './test-support/fixture-server.js';

let site: FixtureServer;
const hostMap = (): Map<string, string> => new Map([['acme.example', site.origin]]);
const BIG = 'x'.repeat(1024);

beforeAll(async () => {
  site = await startFixtureServer((request, response) => {
    switch (request.url) {
      case '/echo':
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(JSON.stringify({ host: request.headers.host, encoding: request.headers['accept-encoding'] ?? null }));
        return;
      case '/to-end':
        response.writeHead(301, { location: 'http://acme.example/end?q=1#frag' });
        response.end();
        return;
      case '/end?q=1':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<title>end</title>');
        return;
      case '/huge': {
        // Ten megabytes, written as fast as the socket takes them.
        response.writeHead(200, { 'content-type': 'text/html' });
        let sent = 0;
        const write = (): void => {
          while (sent < 10 * 1024 && response.write(BIG)) sent += 1;
          if (sent >= 10 * 1024) response.end();
          else response.once('drain', write);
        };
        write();
        return;
      }
      case '/bomb': {
        // 20 MB of zeros in ~20 KB of gzip, sent although the crawler asked for identity.
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.alloc(20 * 1024 * 1024)));
        return;
      }
      case '/gzip-small':
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        response.end(gzipSync('hello compressed'));
        return;
      case '/image':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.alloc(50_000));
        return;
      case '/latin1':
        response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/hang':
        // Headers never come.
        return;
      case '/trickle': {
        response.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => response.write('.'), 20);
        response.on('close', () => clearInterval(timer));
        return;
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
    }
  });
});

afterAll(async () => {
  await site.close();
});

describe('safeFetch', () => {
  it('fetches a mapped host from its origin with the original Host header, path and query, and no compression asked', async () => {
    const response = await safeFetch('http://acme.example/echo', { hostMap: hostMap() });
    expect(response.status).toBe(200);
    expect(response.url).toBe('http://acme.example/echo');
    expect(JSON.parse(response.body ?? '')).toEqual({ host: 'acme.example', encoding: 'identity' });
  });

  it('keeps using the map when a redirect points back at the mapped host, and reports the hops', async () => {
    const response = await safeFetch('http://acme.example/to-end', { hostMap: hostMap() });
    expect(response.url).toBe('http://acme.example/end?q=1');
    expect(response.redirects).toEqual(['http://acme.example/end?q=1']);
    expect(response.body).toContain('end');
  });

  it('stops reading at the byte cap', async () => {
    const started = Date.now();
    const response = await safeFetch('http://acme.example/huge', { hostMap: hostMap(), maxBytes: 100_000 });
    expect(response.truncated).toBe(true);
    expect(response.bytes).toBe(100_000);
    expect(response.body).toHaveLength(100_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('bounds decompression too: a gzip bomb yields at most the cap', async () => {
    const response = await safeFetch('http://acme.example/bomb', { hostMap: hostMap(), maxBytes: 200_000 });
    expect(response.truncated).toBe(true);
    expect(response.bytes).toBe(200_000);
  });

  it('decodes a small compressed body sent without being asked', async () => {
    const response = await safeFetch('http://acme.example/gzip-small', { hostMap: hostMap() });
    expect(response).toMatchObject({ body: 'hello compressed', truncated: false });
  });

  it('does not read content types it does not parse', async () => {
    const response = await safeFetch('http://acme.example/image', { hostMap: hostMap() });
    expect(response).toMatchObject({ status: 200, contentType: 'image/png', body: undefined, bytes: 0 });
  });

  it('decodes the declared charset', async () => {
    expect((await safeFetch('http://acme.example/latin1', { hostMap: hostMap() })).body).toBe('café');
  });

  it('times out when the headers never come', async () => {
    const started = Date.now();
    const failure = await safeFetch('http://acme.example/hang', { hostMap: hostMap(), timeoutMs: 150 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SafeFetchError);
    expect((failure as SafeFetchError).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('times out when the body trickles in forever (the bound covers the body, not just the headers)', async () => {
    const failure = await safeFetch('http://acme.example/trickle', { hostMap: hostMap(), timeoutMs: 200 }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('timeout');
  });

  it("stops when the caller's signal aborts (the crawl deadline)", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const failure = await safeFetch('http://acme.example/hang', { hostMap: hostMap(), signal: controller.signal }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('aborted');
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startFixtureServer(() => undefined);
    const origin = closed.origin;
    await closed.close();
    const failure = await safeFetch('http://gone.example/', { hostMap: new Map([['gone.example', origin]]) }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('network_error');
  });

  it('reports an unknown name as a DNS failure, not a block', async () => {
    const failure = await safeFetch('http://nowhere.example/', { lookup: async () => [] }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('dns_failed');
  });
});
