// Shared pieces of the fuzz tests (rest/fuzz.test.ts, mcp/fuzz.test.ts): a raw HTTP client that can send
// anything (no content type, broken bytes, any header), generators of nasty text and broken JSON, and the
// run settings (a fixed seed by default, FUZZ_SEED / FUZZ_RUNS to explore).

import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** The seed of every property: fixed so CI is reproducible; FUZZ_SEED=<n> replays or explores another. */
export const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? 20_260_808 : Number(process.env.FUZZ_SEED);

/** fast-check parameters of one property; FUZZ_RUNS multiplies every property's runs (e.g. 10 for a long soak). */
export function fuzzParameters<T>(numRuns: number): fc.Parameters<T> {
  const factor = process.env.FUZZ_RUNS === undefined ? 1 : Number(process.env.FUZZ_RUNS);
  // fast-check prints the seed, the path and the shrunk counterexample when a property fails.
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(numRuns * factor)) };
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  text: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | undefined;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** What the fuzzing saw, by "METHOD path-kind status content-type": printed by printFuzzStats when FUZZ_STATS is set. */
const seen = new Map<string, number>();

/** Prints how often each kind of answer came back (FUZZ_STATS=1), to check the generators reach the paths meant. */
export function printFuzzStats(): void {
  if (process.env.FUZZ_STATS === undefined) return;
  const lines = [...seen.entries()].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${String(count).padStart(6)}  ${key}`);
  process.stderr.write(`fuzz answers:\n${lines.join('\n')}\n`);
}

/** One request with node:http (any header, any bytes, no content type at all) and the whole answer as text. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && !options.chunked) headers['content-length'] = String(Buffer.byteLength(options.body));
    // The path is sent exactly as given: new URL() would resolve "/x/%2e%2e" to "/" before it left.
    const [, host = '', path = '/'] = /^http:\/\/([^/]+)(\/.*)?$/s.exec(url) ?? [];
    const { hostname, port } = new URL(`http://${host}`);
    const outgoing = httpRequest({ hostname, port, path, method: options.method ?? 'POST', headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const contentType = incoming.headers['content-type'] ?? '';
        if (process.env.FUZZ_STATS !== undefined) {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = /"code":\s*("[^"]*"|-?\d+)/.exec(text)?.[1] ?? '';
          const key = `${options.method ?? 'POST'} ${path.split('?')[0]?.replace(/\/[^/]*[%0-9][^/]*/g, '/…').slice(0, 40)} ${incoming.statusCode} ${contentType.split(';')[0]} ${code}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, contentType, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    outgoing.setTimeout(15_000, () => outgoing.destroy(new Error(`no answer from ${options.method ?? 'POST'} ${url} within 15 s`)));
    if (options.chunked) {
      // An explicit write makes node send Transfer-Encoding: chunked (also for an empty body).
      if (options.body !== undefined && options.body.length > 0) outgoing.write(options.body);
      outgoing.end();
    } else {
      outgoing.end(options.body);
    }
  });
}

/** Closes the keep-alive sockets of the fuzz client (call in afterAll, before the service stops). */
export function closeFuzzClient(): void {
  agent.destroy();
}

// ---------------------------------------------------------------------------------------------------------
// Nasty text

/** Characters that break naive handling: NUL, controls, RTL override, BOM, line separators, emoji, quotes, markup. */
export const NASTY_CHARS = [
  '\u0000', '\u0001', '\u001b', '\u007f', '\t', '\n', '\r', '\u00a0', '\u2028', '\u2029', '\u202e', '\u200f', '\u200b',
  '\ufeff', '\ufffd', '\uffff', '👍🏽', '👩‍👩‍👧‍👦', '🇺🇸', 'مرحبا', 'שלום', '中文', 'é', 'e\u0301', '"', '\\', "'", '<', '>', '&',
  '<script>alert(1)</script>', '${7*7}', '%00', '%', '../', '__proto__', 'constructor',
];

/** One unit of nasty text: any printable grapheme, any code point, a lone surrogate, or a known troublemaker. */
export const nastyUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_CHARS) },
);

/** Short nasty text (0 to maxLength units). */
export const nastyString = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit: nastyUnit, maxLength });

/** A string of exactly about `min`..`max` UTF-16 units, built by repeating a nasty chunk (cheap even at 70 000). */
export function hugeString(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ unit: nastyUnit, minLength: 1, maxLength: 6 }), fc.integer({ min, max }))
    .map(([chunk, length]) => chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length));
}

/** A string that is longer than `limit` even after whitespace normalisation (it starts with limit+1 letters). */
export function tooLong(limit: number, extraMax = 2_000): fc.Arbitrary<string> {
  return fc.oneof(
    nastyString(20).map((tail) => `${'x'.repeat(limit + 1)}${tail}`),
    hugeString(0, extraMax).map((tail) => `${'é'.repeat(limit + 1)}${tail}`),
  );
}

/** Whitespace only, in every flavour JavaScript's \s knows: empty after normalisation. */
export const blankString: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u000b'), maxLength: 12 });

/** Any JSON value that is not a string (the wrong type for every string field). */
export const nonString: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** Extra fields nobody asked for, including prototype-polluting names. */
export const extraFields: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '')),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

/** A top-level body that is not an object: array, null, number, string, boolean. */
export const nonObjectBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  nastyString(30),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
);

// ---------------------------------------------------------------------------------------------------------
// Broken JSON

/** JSON text of a value, then maybe broken: truncated, trailing comma, BOM, comments, single quotes, NaN, padding. */
export function brokenJsonText(value: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(value) ?? 'null';
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.constant(`\ufeff${text}`) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut)) },
    { weight: 1, arbitrary: fc.constant(text.replace(/([}\]])$/, ',$1')) },
    { weight: 1, arbitrary: fc.constant(`// comment\n${text}`) },
    { weight: 1, arbitrary: fc.constant(text.replaceAll('"', "'")) },
    { weight: 1, arbitrary: fc.constant(`${text}${text}`) },
    { weight: 1, arbitrary: fc.constantFrom('{"a": NaN}', '{"a": Infinity}', '{"a": undefined}', '{a: 1}', '{"a": 01}', '{"a": .5}', '{"a": "\\x41"}', '{"a": "\\u12"}', '{', '}', '[', '"', 'nul', 'tru', '\u0000', '') },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((pad) => `${' '.repeat(pad)}${text}${'\n'.repeat(pad)}`) },
  );
}

/** Bodies no JSON serialiser writes: invalid UTF-8 bytes, UTF-16 with and without a BOM, deep nesting (under a limit). */
export function strangeBytes(maxNesting: number): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom('{"a": "\xff\xfe"}', '{"a": "\xc3\x28"}', '{"a": "\xed\xa0\x80"}', '{"a": "\xf4\x90\x80\x80"}', '\xef\xbb\xbf\xef\xbb\xbf{}').map((text) => Buffer.from(text, 'latin1')),
    fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(`\ufeff${JSON.stringify(value)}`, 'utf16le')),
    fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(JSON.stringify(value), 'utf16le')),
    fc.tuple(fc.integer({ min: 1, max: maxNesting }), fc.constantFrom('[', '{"a":')).map(([depth, open]) =>
      Buffer.from(`${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`),
    ),
  );
}

/** Raw JSON of an object with a key repeated (JSON.parse keeps the last one); `last` is the value that wins. */
export function duplicateKeyJson(key: string, first: unknown, last: unknown, rest: Record<string, unknown> = {}): string {
  const restText = Object.entries(rest)
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'},`)
    .join('');
  return `{${restText}${JSON.stringify(key)}:${JSON.stringify(first) ?? 'null'},${JSON.stringify(key)}:${JSON.stringify(last) ?? 'null'}}`;
}

/** Content types a JSON endpoint must refuse or survive, plus the right one now and then. */
export const contentTypes: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=bogus',
      'application/json;;;',
      'application/json; charset="',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----fuzz',
      'multipart/form-data',
      'application/octet-stream',
      '*/*',
      'json',
      '',
      ';',
      'application/',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((value) => value.replace(/[^\x20-\x7e]/g, '')) },
);

/** Content-Encoding headers (mostly none): a gzip label on plain text must not become a 500. */
export const contentEncodings: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus', 'gzip, gzip') },
);

/** The Cookie header: none, garbage, or a session cookie with a garbage value. */
export const garbageCookie: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((value) => value.replace(/[^\x20-\x7e]/g, '')),
  fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((value) => `sb-access-token=${value.replace(/[^\x21-\x7e]/g, '').replaceAll(';', '')}`),
  fc.constantFrom(
    'sb-access-token=',
    'sb-access-token=%',
    'sb-access-token=%E0%A4%A',
    'sb-access-token=a.b.c',
    'sb-access-token=.',
    'sb-access-token=eyJlbWFpbCI6ImFAYi5jbyIsImV4cCI6OTk5OTk5OTk5OTksInYiOjF9.AAAA',
    'sb-access-token=x; sb-access-token=y',
    '=; ==; ;;;',
  ),
);

/** A field that is missing from the record. */
export const MISSING = Symbol('missing');
export const dropMissing = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== MISSING));

/** The audit's string bounds (the spec's Limits), shared by POST /api/audit and start_visibility_check. */
export const AUDIT_FIELD_BOUNDS = { brand: 80, website: 160, category: 120, competitors: 220, location: 80, email: 120 } as const;

/** The language field as each transport names it: REST's AuditRequest and the MCP tool's input. */
export type AuditLanguageField = 'promptLanguage' | 'language';

/** Plausible audit fields (some hostile), any one of which a poison then replaces. */
export function plausibleAuditFields(language: AuditLanguageField): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    brand: fc.oneof(fc.constantFrom('Acme', 'Pipedrive'), nastyString(20)),
    website: fc.constantFrom('acme.example', 'https://www.acme.example/', 'localhost', 'http://127.0.0.1:3000', '10.0.0.7'),
    category: fc.oneof(fc.constantFrom('CRM software'), nastyString(20)),
    competitors: fc.oneof(fc.constant(MISSING), nastyString(30)),
    location: fc.oneof(fc.constant(MISSING), nastyString(20)),
    [language]: fc.oneof(fc.constant(MISSING), fc.constantFrom('en', 'es', 'EN', 'fr', '')),
    email: fc.oneof(fc.constant(MISSING), fc.constantFrom('owner@acme.example'), nastyString(20)),
  });
}

/** The audit's field names, one at a time. */
export function auditFieldName(language: AuditLanguageField): fc.Arbitrary<string> {
  return fc.constantFrom('brand', 'website', 'category', 'competitors', 'location', language, 'email');
}

/** One field over its bound. */
export const auditFieldTooLong: fc.Arbitrary<Record<string, string>> = fc
  .constantFrom(...(Object.keys(AUDIT_FIELD_BOUNDS) as Array<keyof typeof AUDIT_FIELD_BOUNDS>))
  .chain((name) => tooLong(AUDIT_FIELD_BOUNDS[name]).map((value) => ({ [name]: value })));
