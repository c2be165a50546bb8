// Audit wall time against its critical path: with every provider call taking a fixed latency L and
// at most C calls in flight per provider, an audit of Q questions x S samples cannot finish before
// ceil(Q*S / C) * L (providers run side by side). The ratio shows the audit's own overhead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuditBenchFigures {
  wallMs: number;
  criticalPathMs: number;
  questions: number;
  samplesPerQuestion: number;
  providers: number;
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

/** Runs one audit against a service whose simulator answers every call after `latencyMs`. */
export async function measureAudit(base: string, simulatorUrl: string, latencyMs: number, concurrency: number, caller: string): Promise<AuditBenchFigures> {
  await fetch(`${simulatorUrl}/__simulator/latency`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: latencyMs }) });
  const started = performance.now();
  const response = await fetch(`${base}/api/audit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': caller },
    body: JSON.stringify({ brand: 'Pipedrive', website: 'pipedrive.bench', category: 'CRM software' }),
  });
  const wallMs = performance.now() - started;
  const body = (await response.json()) as {
    productFanout?: { questions: string[] } | null;
    audit?: { samplesPerQuestion: number };
    providerFindings?: unknown[];
    code?: string;
  };
  if (response.status !== 200) throw new Error(`audit answered ${response.status} ${body.code ?? ''}`);
  const questions = body.productFanout?.questions.length ?? 0;
  const samplesPerQuestion = body.audit?.samplesPerQuestion ?? 0;
  const criticalPathMs = Math.ceil((questions * samplesPerQuestion) / concurrency) * latencyMs;
  return { wallMs, criticalPathMs, questions, samplesPerQuestion, providers: body.providerFindings?.length ?? 0 };
}
