// Property-based fuzzing of every JSON endpoint with generated bad input (issue 8, "Fuzzing").
//
// Every generated request is invalid by construction (and checked against the handlers' own validators),
// so nothing reaches a provider, a crawl or a rate-limit slot: a run takes seconds, not minutes. The
// properties: never a 5xx (but the 503s the spec lists), an error body is exactly the spec's ApiError
// {error, code, hint, docs} as application/json with a code the spec (or docs/*.md, for what the spec
// leaves to us) lists for that operation and status, never HTML; and the server still answers afterwards.
//
// Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run apps/server/src/rest/fuzz.test.ts
// Soak: FUZZ_RUNS=10 multiplies the runs of every property.

import { createHmac, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditRequest, parseCheckRequest, parseRepeatRequest } from '@visibility/core';
import { normalizeEmail } from '../auth/email-address.js';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';
import {
  auditFieldName,
  auditFieldTooLong,
  dropMissing,
  MISSING,
  plausibleAuditFields,
  blankString,
  brokenJsonText,
  closeFuzzClient,
  printFuzzStats,
  contentEncodings,
  contentTypes,
  duplicateKeyJson,
  extraFields,
  fuzzParameters,
  garbageCookie,
  hugeString,
  nastyString,
  nonObjectBody,
  nonString,
  rawRequest,
  strangeBytes,
  tooLong,
  type RawReply,
} from './test-support/fuzz-http.js';

const BASE_URL = 'http://visibility.test';
const DOCS = `${BASE_URL}/developers`;
const SESSION_SECRET = 'fuzz-test-session-secret-0123456789abcdef';
const OWNER = 'owner@acme.example';

/**
 * The codes an error may carry, per operation and status. From the spec's Errors table; the rows the spec
 * leaves to us come from docs/api.md (startBuyerQuestionMap 400 `invalid_body`, 402 `no_credits`),
 * docs/accounts.md (sign-in, /api/account) and docs/badge.md (badge tokens and share links). A 5xx is
 * allowed only where listed, and 500 never for bad input.
 */
const ALLOWED_ERRORS = {
  runRepeatedBuyerQuestion: {
    400: ['bad_body', 'empty_question', 'question_too_long', 'bad_provider', 'provider_unavailable'],
    429: ['rate_limited', 'daily_cap'],
    503: ['budget', 'provider_unavailable'],
  },
  checkBrandRecognition: {
    400: ['missing_brand'],
    429: ['rate_limited'],
    503: ['not_configured', 'provider_paused', 'provider_overloaded', 'budget'],
  },
  startVisibilityAudit: {
    400: ['invalid_body', 'missing_required', 'invalid_website', 'invalid_email'],
    429: ['rate_limited'],
    503: ['store_unavailable'],
  },
  startBuyerQuestionMap: {
    400: ['invalid_body'],
    401: ['unauthorized'],
    402: ['no_credits'],
    404: ['audit_not_found'],
    409: ['no_fanout'],
    429: ['rate_limited'],
  },
  getBuyerQuestionMap: { 404: ['audit_not_found'], 429: ['rate_limited'] },
  account: { 401: ['unauthorized'] },
  auditTokens: { 401: ['unauthorized'], 403: ['cross_origin', 'forbidden'], 404: ['audit_not_found', 'token_not_found'] },
  signIn: { 400: ['invalid_body', 'invalid_email'], 403: ['cross_origin'], 429: ['rate_limited'], 503: ['mail_unavailable'] },
  unknownApiPath: { 404: ['endpoint_not_found'] },
} as const satisfies Record<string, Partial<Record<number, readonly string[]>>>;

type Operation = keyof typeof ALLOWED_ERRORS;

function describeReply(reply: RawReply): string {
  return `${reply.status} ${reply.contentType}: ${reply.text.slice(0, 300)}`;
}

/** The error answer is the spec's ApiError, as JSON, with a code listed for the operation and status. */
function expectApiError(reply: RawReply, operation: Operation, extra: Partial<Record<number, readonly string[]>> = {}): void {
  const allowed: Partial<Record<number, readonly string[]>> = ALLOWED_ERRORS[operation];
  const codes = [...(allowed[reply.status] ?? []), ...(extra[reply.status] ?? [])];
  expect(reply.status, `${operation} answered an unlisted status: ${describeReply(reply)}`).toBeGreaterThanOrEqual(400);
  expect(codes.length, `${operation} answered an unlisted status: ${describeReply(reply)}`).toBeGreaterThan(0);
  expect(reply.contentType, describeReply(reply)).toMatch(/^application\/json\b/);
  expect(reply.text, describeReply(reply)).not.toMatch(/<html|<!doctype|\n\s+at /i);
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    throw new Error(`${operation}: the error body is not JSON: ${describeReply(reply)}`);
  }
  expect(typeof body === 'object' && body !== null && !Array.isArray(body), describeReply(reply)).toBe(true);
  const fields = body as Record<string, unknown>;
  expect(Object.keys(fields).sort(), describeReply(reply)).toEqual(['code', 'docs', 'error', 'hint']);
  for (const name of ['error', 'code', 'hint'] as const) {
    expect(typeof fields[name], describeReply(reply)).toBe('string');
    expect((fields[name] as string).length, describeReply(reply)).toBeGreaterThan(0);
  }
  expect(fields['docs']).toBe(DOCS);
  expect(codes, `${operation} ${reply.status} answered code "${String(fields['code'])}"`).toContain(fields['code']);
}

/** A success answer of a JSON endpoint is JSON too. */
function expectJsonSuccess(reply: RawReply): void {
  expect(reply.contentType, describeReply(reply)).toMatch(/^application\/json\b/);
  expect(() => JSON.parse(reply.text), describeReply(reply)).not.toThrow();
}

/** What the server would parse out of a body: JSON.parse after the BOM body-parser strips; undefined when it cannot. */
function parsedBodies(body: string | Buffer | undefined): unknown[] {
  if (body === undefined) return [];
  const found: unknown[] = [];
  const raw = typeof body === 'string' ? body : body.toString('utf8');
  const texts = [raw, raw.replace(/^\ufeff/, '')];
  if (Buffer.isBuffer(body)) texts.push(body.toString('utf16le'), body.toString('utf16le').replace(/^\ufeff/, ''), body.toString('latin1'));
  for (const text of texts) {
    try {
      found.push(text.trim() === '' ? {} : JSON.parse(text));
    } catch {
      // Unparseable: the server answers 400 before validating.
    }
  }
  return found;
}

const accepts = (validate: (body: unknown) => unknown) => (body: unknown) => {
  try {
    validate(body);
    return true;
  } catch {
    return false;
  }
};

/** One generated request to a JSON endpoint. */
interface JsonCase {
  body: string | Buffer | undefined;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  chunked: boolean;
}

/**
 * Requests to a JSON endpoint: a bad object (broken in every way brokenJsonText knows), a duplicate key
 * whose last value is bad, a non-object body, a body past the 16 KB limit, or none; with any content type.
 * Whatever the handler's own validator would accept is dropped, so nothing valid is ever sent.
 */
function jsonCases(badObject: fc.Arbitrary<Record<string, unknown>>, duplicateKey: fc.Arbitrary<string>, wouldAccept: (body: unknown) => boolean): fc.Arbitrary<JsonCase> {
  const body: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
    { weight: 1, arbitrary: strangeBytes(8_000) },
    { weight: 8, arbitrary: badObject.chain((value) => brokenJsonText(value)) },
    { weight: 2, arbitrary: duplicateKey },
    { weight: 2, arbitrary: nonObjectBody.chain((value) => brokenJsonText(value)) },
    { weight: 1, arbitrary: fc.tuple(badObject, hugeString(16 * 1024, 40 * 1024)).map(([value, pad]) => JSON.stringify({ ...value, pad })) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', ' ', '\ufeff', 'null', '[]', '{}') },
  );
  return fc
    .record({ body, contentType: contentTypes, contentEncoding: contentEncodings, chunked: fc.boolean() })
    .filter((request) => !parsedBodies(request.body).some(wouldAccept));
}

function sendJson(url: string, request: JsonCase, headers: Record<string, string> = {}, method = 'POST'): Promise<RawReply> {
  return rawRequest(url, {
    method,
    headers: {
      ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
      ...(request.contentEncoding === undefined ? {} : { 'content-encoding': request.contentEncoding }),
      ...headers,
    },
    ...(request.body === undefined ? {} : { body: request.body }),
    chunked: request.chunked,
  });
}

/** Merges generated extra fields under the generated ones (so the field under test always wins). */
const withExtras = (record: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(extraFields, record).map(([extras, fields]) => ({ ...extras, ...fields }));


let running: TestService;
let knownAuditId: string;

beforeAll(async () => {
  running = await startTestService({ SESSION_SECRET });
  // One stored audit (with no buyer questions, owned by OWNER): ids that exist reach the 409/401/403 paths.
  knownAuditId = randomUUID();
  await running.service.store.auditRepository.insertAudit({
    id: knownAuditId,
    createdAt: new Date().toISOString(),
    brand: 'Acme CRM',
    brandKey: 'acme crm',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: OWNER,
    mode: 'demo',
    measured: true,
    score: 62,
    response: { id: knownAuditId, audit: { score: 62 } },
  });
});

afterAll(async () => {
  printFuzzStats();
  closeFuzzClient();
  await running?.stop();
});

const TIMEOUT = 60_000;

describe('POST /api/tools/repeat (runRepeatedBuyerQuestion) with bad input', () => {
  const badQuestion = fc.oneof(nonString, blankString, tooLong(200), nastyString(30));
  const goodQuestion = fc.constantFrom('best crm for a small team?', 'which CRM should I buy');
  const badProvider = fc.oneof(nonString, nastyString(12), fc.constantFrom('OpenAI', 'openai ', 'gpt-4', '', 'anthropic\u0000', 'gemini '));
  const anyProvider = fc.oneof(badProvider, fc.constantFrom('openai', 'gemini', 'anthropic'));
  const badObject = fc.oneof(
    withExtras(fc.record({ question: badQuestion, provider: fc.oneof(anyProvider, fc.constant(MISSING)) }).map(dropMissing)),
    withExtras(fc.record({ question: goodQuestion, provider: badProvider })),
    extraFields.map(({ question: _question, ...rest }) => rest),
  );
  const duplicateKey = fc.oneof(
    fc.tuple(goodQuestion, badQuestion).map(([first, last]) => duplicateKeyJson('question', first, last, { provider: 'openai' })),
    fc.tuple(badProvider).map(([last]) => duplicateKeyJson('provider', 'openai', last, { question: 'best crm?' })),
  );

  it('answers only listed 400/429/503 ApiErrors as JSON, never a 5xx', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(jsonCases(badObject, duplicateKey, accepts(parseRepeatRequest)), async (request) => {
        expectApiError(await sendJson(`${running.url}/api/tools/repeat`, request), 'runRepeatedBuyerQuestion');
      }),
      fuzzParameters(150),
    );
  });
});

describe('POST /api/check (checkBrandRecognition) with bad input', () => {
  const badBrand = fc.oneof(nonString, blankString, tooLong(80), fc.constant(MISSING));
  const badCategory = fc.oneof(fc.oneof(nonString, tooLong(120)).filter((value) => value !== null));
  const anyText = fc.oneof(nastyString(40), fc.constant(MISSING));
  const badObject = fc.oneof(
    withExtras(fc.record({ brand: badBrand, category: fc.oneof(anyText, badCategory) }).map(dropMissing)),
    withExtras(fc.record({ brand: nastyString(40), category: badCategory })),
  );
  const duplicateKey = fc.tuple(badBrand.filter((value) => value !== MISSING)).map(([last]) => duplicateKeyJson('brand', 'Acme', last, { category: 'CRM' }));

  it('answers only missing_brand 400s (or listed 429/503) as JSON, never a 5xx', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(jsonCases(badObject, duplicateKey, accepts(parseCheckRequest)), async (request) => {
        expectApiError(await sendJson(`${running.url}/api/check`, request), 'checkBrandRecognition');
      }),
      fuzzParameters(150),
    );
  });
});

describe('POST /api/audit (startVisibilityAudit) with bad input', () => {
  const plausible = plausibleAuditFields('promptLanguage');
  const field = auditFieldName('promptLanguage');
  const badWebsite = fc.constantFrom(
    'localhost',
    'http://localhost:8080/',
    '127.0.0.1',
    'http://[::1]/',
    'http://10.1.2.3',
    '192.168.0.1',
    '169.254.169.254',
    'http://0.0.0.0',
    'ftp://acme.example',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<b>x</b>',
    'http://',
    'https://acme example.com',
    'http://user:pass@localhost',
    '//localhost',
  );
  const badEmail = fc.oneof(
    fc.constantFrom('not-an-email', 'a@', '@acme.example', 'a@b', 'a b@acme.example', 'a@acme..example', `${'a'.repeat(120)}@acme.example`),
    nastyString(30).map((text) => text.replaceAll('@', '')),
  );
  // One poison per body: a wrong type, a required field blank or missing, a field over its bound, a private or
  // non-http website, a bad email or language.
  const poison: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    fc.tuple(field, nonString.filter((value) => value !== null)).map(([name, value]) => ({ [name]: value })),
    fc.tuple(fc.constantFrom('brand', 'website', 'category'), fc.oneof(blankString, fc.constant(MISSING), fc.constant(null))).map(([name, value]) => ({ [name]: value })),
    auditFieldTooLong,
    badWebsite.map((website) => ({ website })),
    badEmail.map((email) => ({ email })),
    fc.constantFrom('fr', 'EN-us', 'english', 'e', 'es-MX').map((promptLanguage) => ({ promptLanguage })),
  );
  const badObject = withExtras(fc.tuple(plausible, poison).map(([base, bad]) => dropMissing({ ...base, ...bad })));
  const duplicateKey = fc
    .tuple(fc.constantFrom('brand', 'website', 'category'), fc.oneof(nonString, blankString))
    .map(([name, last]) => duplicateKeyJson(name, 'acme.example', last, { brand: 'Acme', website: 'acme.example', category: 'CRM' }));
  const validAudit = accepts((body) => parseAuditRequest(body, { hostMap: new Map() }));

  it('answers only listed 400/429/503 ApiErrors as JSON, never a 5xx, and never starts an audit', { timeout: TIMEOUT }, async () => {
    const before = (await running.service.store.auditRepository.listAuditsByEmail(OWNER)).length;
    await fc.assert(
      fc.asyncProperty(jsonCases(badObject, duplicateKey, validAudit), async (request) => {
        expectApiError(await sendJson(`${running.url}/api/audit`, request), 'startVisibilityAudit');
      }),
      fuzzParameters(200),
    );
    expect(running.service.simulator?.requests().length ?? 0).toBe(0);
    expect(await running.service.store.auditRepository.listAuditsByEmail(OWNER)).toHaveLength(before);
  });
});

/** Text percent-encoded as a path segment, cut to at most `limit` characters at a whole escape. */
function encodedAtMost(text: string, limit: number): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))
    .slice(0, limit)
    .replace(/%[0-9A-F]?$/, '');
}

/** Audit ids: random UUIDs, the stored audit's (any case), nasty text (percent-encoded) and raw malformed segments. */
const auditIds: fc.Arbitrary<{ segment: string; raw: boolean }> = fc.oneof(
  fc.uuid().map((id) => ({ segment: id, raw: false })),
  fc.constantFrom('lower', 'upper').map((kind) => ({ segment: kind === 'upper' ? knownAuditId.toUpperCase() : knownAuditId, raw: false })),
  // An empty segment ("/api/audit//fanout-map") is another path, not an id: there the unknown-path 404 is right.
  nastyString(60).map((text) => encodedAtMost(text, 6_000)).map((segment) => ({ segment, raw: segment === '' })),
  // Long ids, but under node's 16 KB header limit (a longer URL is node's own bare 431, before Express).
  hugeString(100, 4_000).map((text) => ({ segment: encodedAtMost(text, 6_000), raw: false })),
  fc
    .constantFrom('%', '%E0%A4%A', '%ZZ', '%C0%AF', '%ED%A0%80', '%00', '..', '.', '%2e%2e', '%2F', 'a%2Fb', '%uD800', '%F0%9F', '~', ';', ',', '*', ':id', '%20', '+')
    .map((segment) => ({ segment, raw: true })),
  fc.uuid().map((id) => ({ segment: `${id}%`, raw: true })),
);

describe('POST and GET /api/audit/{auditId}/fanout-map with bad ids and bodies', () => {
  const mapBody = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('{}', '{"rerun": true}', '{"rerun": false}', '{"rerun": "yes"}', '{"rerun": 1}', '{"rerun": null}', '[]', 'null', 'true', '{"rerun": tru'),
    fc.record({ rerun: fc.oneof(nonString, nastyString(10), fc.boolean()) }).chain((value) => brokenJsonText(value)),
    hugeString(16 * 1024, 30 * 1024).map((pad) => JSON.stringify({ rerun: true, pad })),
  );
  const cookies = fc.oneof(garbageCookie, fc.constant(`${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`));
  // A mangled segment may stop the route from matching at all: then it is the unknown-path 404.
  const rawSegmentExtra = { 404: ['endpoint_not_found'] } as const;

  it('POST answers only listed ApiErrors (or a JSON 200), never a 5xx, and never starts a map', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(auditIds, mapBody, contentTypes, cookies, fc.boolean(), async (id, body, contentType, cookie, chunked) => {
        const reply = await sendJson(`${running.url}/api/audit/${id.segment}/fanout-map`, { body, contentType, contentEncoding: undefined, chunked }, cookie === undefined ? {} : { cookie });
        if (reply.status < 300) expectJsonSuccess(reply);
        else expectApiError(reply, 'startBuyerQuestionMap', id.raw ? rawSegmentExtra : {});
      }),
      fuzzParameters(150),
    );
    expect(running.service.simulator?.requests().length ?? 0).toBe(0);
  });

  it('GET answers only listed ApiErrors (or a JSON 200), never a 5xx', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(auditIds, garbageCookie, async (id, cookie) => {
        const reply = await rawRequest(`${running.url}/api/audit/${id.segment}/fanout-map`, { method: 'GET', headers: cookie === undefined ? {} : { cookie } });
        if (reply.status < 300) expectJsonSuccess(reply);
        else expectApiError(reply, 'getBuyerQuestionMap', id.raw ? rawSegmentExtra : {});
      }),
      fuzzParameters(120),
    );
  });
});

describe('GET /api/badge/{token} (getVisibilityBadge) with random tokens', () => {
  // Non-empty: "/api/badge/" has no token, so it is not this operation (it answers the unknown-path 404).
  const tokens = fc.oneof(
    fc.base64String({ maxLength: 64 }).map((text) => encodeURIComponent(text)),
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'), minLength: 1, maxLength: 64 }),
    nastyString(60).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))),
    hugeString(100, 6_000).map((text) => encodedAtMost(text, 6_000)),
    fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%ED%A0%80', '%00', '..', '%2e%2e', '%2F', '%uD800', 'a%', '<svg>', '%3Cscript%3E', '"', "'"),
  ).filter((token) => token !== '');

  it('answers every unknown token 404 with the SVG badge, never JSON, HTML or a 5xx', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(tokens, async (token) => {
        const reply = await rawRequest(`${running.url}/api/badge/${token}`, { method: 'GET' });
        expect(reply.status, describeReply(reply)).toBe(404);
        expect(reply.contentType, describeReply(reply)).toMatch(/^image\/svg\+xml\b/);
        expect(reply.text, describeReply(reply)).toMatch(/^(<\?xml[^>]*>\s*)?<svg\b/);
        expect(reply.text).toMatch(/<\/svg>\s*$/);
      }),
      fuzzParameters(150),
    );
  });
});

describe('the signed-in JSON endpoints without a session, or with garbage or forged ones', () => {
  /** A cookie whose token is correctly signed with the service's secret but carries a weird payload. */
  const signedWeirdPayload = fc
    .oneof(
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
      fc.record({ email: fc.oneof(nastyString(30), nonString), exp: fc.oneof(fc.integer(), fc.double(), fc.constant(9_999_999_999), nonString), v: fc.oneof(fc.constant(1), nonString) }).map((value) => JSON.stringify(value)),
      nastyString(30),
    )
    .map((payloadText) => {
      const payload = Buffer.from(payloadText).toString('base64url');
      return `${SESSION_COOKIE}=${payload}.${createHmac('sha256', SESSION_SECRET).update(payload).digest('base64url')}`;
    });
  const strangerSession = fc.emailAddress().map((email) => `${SESSION_COOKIE}=${createSessionToken(`x${email}`, SESSION_SECRET)}`);
  const cookies = fc.oneof(garbageCookie, signedWeirdPayload, strangerSession);
  const origins = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(BASE_URL, 'https://evil.example', 'null', '', 'not a url', 'http://visibility.test.evil.example') },
  );
  const calls = fc.oneof(
    fc.constant({ method: 'GET', path: '/api/account', operation: 'account' as const }),
    fc.constant({ method: 'GET', path: '/api/account/audits', operation: 'account' as const }),
    auditIds.map((id) => ({ method: 'POST', path: `/api/audit/${id.segment}/badge-token`, operation: 'auditTokens' as const, raw: id.raw })),
    auditIds.map((id) => ({ method: 'POST', path: `/api/audit/${id.segment}/share-link`, operation: 'auditTokens' as const, raw: id.raw })),
    fc.tuple(auditIds, fc.constantFrom('badge', 'share', 'other', '%'), fc.base64String({ maxLength: 20 })).map(([id, kind, token]) => ({
      method: 'DELETE',
      path: `/api/audit/${id.segment}/tokens/${kind}/${encodeURIComponent(token) || 'x'}`,
      operation: 'auditTokens' as const,
      raw: id.raw || kind === '%',
    })),
  );

  it('answers a JSON 200 (a valid signature of a stranger) or only listed ApiErrors, never a 5xx, never minting a token', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(calls, cookies, origins, fc.option(nastyString(20)), async (call, cookie, origin, body) => {
        const reply = await rawRequest(`${running.url}${call.path}`, {
          method: call.method,
          headers: {
            ...(cookie === undefined ? {} : { cookie }),
            ...(origin === undefined ? {} : { origin }),
            ...(body === null ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === null ? {} : { body }),
        });
        if (reply.status < 300) {
          expect(call.operation, describeReply(reply)).toBe('account');
          expectJsonSuccess(reply);
        } else {
          expectApiError(reply, call.operation, 'raw' in call && call.raw ? { 404: ['endpoint_not_found'] } : {});
        }
      }),
      fuzzParameters(200),
    );
  });
});

describe('POST /auth/sign-in with bad JSON and form bodies', () => {
  const isForm = (contentType: string | undefined) => /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(contentType ?? '');
  const badEmail = fc.oneof(
    nonString,
    blankString,
    tooLong(120),
    fc.constantFrom('not-an-email', 'a@', '@acme.example', 'a@b', 'a b@acme.example', 'a@acme..example', 'owner@acme.example\u0000', '<owner@acme.example>'),
    nastyString(30).map((text) => text.replaceAll('@', '')),
  );
  const jsonObject = withExtras(fc.record({ email: fc.oneof(badEmail, fc.constant(MISSING)) }).map(dropMissing));
  const formBody = fc.oneof(
    badEmail.map((email) => `email=${encodeURIComponent(typeof email === 'string' ? email.replace(/[\ud800-\udfff]/g, '\ufffd') : JSON.stringify(email) ?? '')}`),
    fc.array(fc.tuple(nastyString(8), nastyString(12)), { maxLength: 30 }).map((pairs) =>
      pairs.map(([key, value]) => `${encodeURIComponent(key.replace(/[\ud800-\udfff]/g, '\ufffd'))}=${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'))}`).join('&'),
    ),
    hugeString(4 * 1024, 12 * 1024).map((pad) => `email=${encodeURIComponent(pad.replace(/[\ud800-\udfff]/g, '\ufffd'))}`),
    fc.constantFrom('email=%', 'email=%E0%A4%A', 'email', '=', '&&&', 'email=a&email=b', 'email[]=a@b.co', 'email[x]=1'),
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: jsonObject.chain((value) => brokenJsonText(value)) },
    { weight: 2, arbitrary: formBody },
    { weight: 1, arbitrary: nonObjectBody.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.tuple(badEmail).map(([last]) => duplicateKeyJson('email', OWNER, last)) },
    { weight: 1, arbitrary: hugeString(16 * 1024, 30 * 1024).map((pad) => JSON.stringify({ email: 'a', pad })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const contentType = fc.oneof(
    contentTypes,
    fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/x-www-form-urlencoded; charset=bogus', 'multipart/form-data; boundary=x'),
  );
  const origins = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(BASE_URL, 'https://evil.example', 'null', 'not a url') },
  );
  /** Whether any reading of the body (JSON, or a form's email values) holds a valid address: such a request would send mail. */
  const holdsValidEmail = (raw: string | undefined): boolean => {
    if (raw === undefined) return false;
    const emails = parsedBodies(raw).map((value) => (typeof value === 'object' && value !== null ? (value as { email?: unknown }).email : undefined));
    try {
      emails.push(...new URLSearchParams(raw).getAll('email'));
    } catch {
      // Not a form.
    }
    return emails.some((email) => normalizeEmail(email) !== undefined);
  };

  it('answers JSON callers only listed ApiErrors and form posts the account page with the same status, never a 5xx', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ body, contentType, origin: origins, chunked: fc.boolean() }).filter((request) => !holdsValidEmail(request.body)),
        async (request) => {
          const reply = await sendJson(
            `${running.url}/auth/sign-in`,
            { body: request.body, contentType: request.contentType, contentEncoding: undefined, chunked: request.chunked },
            request.origin === undefined ? {} : { origin: request.origin },
          );
          expect(reply.status, describeReply(reply)).toBeLessThan(500);
          if (isForm(request.contentType) && reply.contentType.startsWith('text/html')) {
            // The /account page's form (docs/accounts.md): the same status, with the page and the message.
            expect([400, 403, 429], describeReply(reply)).toContain(reply.status);
            expect(reply.text).toMatch(/^<!doctype html>/i);
          } else {
            expectApiError(reply, 'signIn');
          }
        },
      ),
      fuzzParameters(150),
    );
  });
});

describe('unknown paths under /api', () => {
  it('answers any method and path 404 endpoint_not_found as an ApiError', { timeout: TIMEOUT }, async () => {
    const segment = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.~'), minLength: 1, maxLength: 12 }),
      nastyString(10).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd')) || 'x'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.array(segment, { minLength: 1, maxLength: 4 }), async (method, segments) => {
        const path = `/api/zz-${segments.join('/')}`;
        expectApiError(await rawRequest(`${running.url}${path}`, { method }), 'unknownApiPath');
      }),
      fuzzParameters(60),
    );
  });
});

describe('path segments Express cannot percent-decode (found by the properties above)', () => {
  // Before literal-path-segments.ts these were a bare 400 `bad_request`, and JSON from the badge endpoint.
  it.each(['%', '%E0%A4%A', '%ZZ', '%ED%A0%80', 'a%'])('treats %s as an unknown id or token', async (segment) => {
    const badge = await rawRequest(`${running.url}/api/badge/${segment}`, { method: 'GET' });
    expect(badge.status).toBe(404);
    expect(badge.contentType).toMatch(/^image\/svg\+xml\b/);
    for (const method of ['GET', 'POST']) {
      expectApiError(await rawRequest(`${running.url}/api/audit/${segment}/fanout-map`, { method }), method === 'GET' ? 'getBuyerQuestionMap' : 'startBuyerQuestionMap');
    }
    const minted = await rawRequest(`${running.url}/api/audit/${segment}/badge-token`, { method: 'POST', headers: { cookie: `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}` } });
    expect(JSON.parse(minted.text)).toMatchObject({ code: 'audit_not_found' });
  });

  it('leaves ids that decode alone', async () => {
    const known = await rawRequest(`${running.url}/api/audit/${encodeURIComponent(knownAuditId)}/fanout-map`, { method: 'GET' });
    expect(known.status).toBe(200);
    expect(JSON.parse(known.text)).toMatchObject({ ok: true, status: 'no_fanout' });
  });
});

describe('after the fuzzing', () => {
  it('still answers GET /health', async () => {
    const reply = await rawRequest(`${running.url}/health`, { method: 'GET' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ status: 'ok', mode: 'demo' });
    // Nothing the fuzzing sent reached a provider.
    expect(running.service.simulator?.requests().length ?? 0).toBe(0);
  });
});
