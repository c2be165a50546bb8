// Audit wall time against its critical path: with every provider call taking a fixed latency L and
// at most C calls in flight per provider, an audit of Q questions x S samples cannot finish before
// ceil(Q*S / C) * L (providers run side by side). The ratio shows the audit's own overhead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuditBenchFigures {
  /** The stored audit's id (for the map, the badge and the reads). */
  id: string;
  wallMs: number;
  criticalPathMs: number;
  questions: number;
  samplesPerQuestion: number;
  providers: number;
  /** Size of the AuditResponse (what the store keeps and every map read parses again). */
  responseBytes: number;
}

/** A one-page brand site for the audit to crawl, reached through CRAWL_HOST_MAP. */
export async function startBenchSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html lang="en"><head><title>Pipedrive CRM</title></head><body><h1>Sales CRM for small teams</h1></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function setLatency(simulatorUrl: string, latencyMs: number): Promise<void> {
  const response = await fetch(`${simulatorUrl}/__simulator/latency`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: latencyMs }) });
  if (!response.ok) throw new Error(`the simulator refused latency ${latencyMs}: ${response.status}`);
}

/** Runs one audit against a service whose simulator answers every call after `latencyMs`; with `email`, the audit is attached to (and mailed to) it. */
export async function measureAudit(
  base: string,
  simulatorUrl: string,
  latencyMs: number,
  concurrency: number,
  caller: string,
  email?: string,
): Promise<AuditBenchFigures> {
  await setLatency(simulatorUrl, latencyMs);
  const started = performance.now();
  const response = await fetch(`${base}/api/audit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': caller },
    body: JSON.stringify({ brand: 'Pipedrive', website: 'pipedrive.bench', category: 'CRM software', ...(email === undefined ? {} : { email }) }),
  });
  const wallMs = performance.now() - started;
  const text = await response.text();
  const body = JSON.parse(text) as {
    id?: string;
    productFanout?: { questions: string[] } | null;
    audit?: { samplesPerQuestion: number };
    providerFindings?: unknown[];
    code?: string;
  };
  if (response.status !== 200) throw new Error(`audit answered ${response.status} ${body.code ?? ''}`);
  const questions = body.productFanout?.questions.length ?? 0;
  const samplesPerQuestion = body.audit?.samplesPerQuestion ?? 0;
  const criticalPathMs = Math.ceil((questions * samplesPerQuestion) / concurrency) * latencyMs;
  return { id: body.id ?? '', wallMs, criticalPathMs, questions, samplesPerQuestion, providers: body.providerFindings?.length ?? 0, responseBytes: Buffer.byteLength(text) };
}

export interface MapBenchFigures {
  wallMs: number;
  criticalPathMs: number;
  questions: number;
  providers: number;
  answeredCells: number;
  responseBytes: number;
  /** Every answer the map stored, with the brand it was measured for (a corpus for the extractor bench). */
  answers: string[];
}

/**
 * Runs the buyer-question map of a stored audit (POST /api/audit/{id}/fanout-map, the free first map,
 * answered when the map is complete) and times it. The map asks each of its Q questions once per
 * provider; each provider's column is worked by at most C calls at a time (the runner's
 * concurrencyPerProvider, which is PROVIDER_CONCURRENCY) and the columns run side by side, so with
 * every call taking L the map cannot finish before ceil(Q / C) x L: the audit's bound with S = 1.
 */
export async function measureMap(base: string, simulatorUrl: string, latencyMs: number, concurrency: number, auditId: string, caller: string): Promise<MapBenchFigures> {
  await setLatency(simulatorUrl, latencyMs);
  const started = performance.now();
  const response = await fetch(`${base}/api/audit/${auditId}/fanout-map`, { method: 'POST', headers: { 'x-forwarded-for': caller } });
  const wallMs = performance.now() - started;
  const text = await response.text();
  const body = JSON.parse(text) as {
    map?: { questions: string[]; providers: unknown[]; summary: { answeredCells: number }; rows: Array<{ cells: Array<{ answer: string | null }> }> };
    status?: string;
    code?: string;
  };
  if (response.status !== 200 || body.map === undefined) throw new Error(`the map answered ${response.status} ${body.code ?? body.status ?? ''}`);
  const questions = body.map.questions.length;
  const answers = body.map.rows.flatMap((row) => row.cells.flatMap((cell) => (cell.answer === null ? [] : [cell.answer])));
  return {
    wallMs,
    criticalPathMs: Math.ceil(questions / concurrency) * latencyMs,
    questions,
    providers: body.map.providers.length,
    answeredCells: body.map.summary.answeredCells,
    responseBytes: Buffer.byteLength(text),
    answers,
  };
}
