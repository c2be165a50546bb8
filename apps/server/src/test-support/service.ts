import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig } from '@visibility/core';
import { startService, type RunningService, type StartServiceOptions } from '../service.js';

export interface TestService {
  service: RunningService;
  url: string;
  dataDir: string;
  logLines: string[];
  stop(): Promise<void>;
}

/** Starts the real service on a free port with its own DATA_DIR; stop() removes it all. */
export async function startTestService(environment: Record<string, string> = {}, dataDir?: string, options: StartServiceOptions = {}): Promise<TestService> {
  const folder = dataDir ?? mkdtempSync(join(tmpdir(), 'visibility-test-'));
  const logLines: string[] = [];
  const config = loadConfig({ PORT: '0', DATA_DIR: folder, BASE_URL: 'http://visibility.test', ...environment });
  const service = await startService(config, createLogger({ level: 'info', write: (line) => logLines.push(line) }), options);
  return {
    service,
    url: service.url.replace('localhost', '127.0.0.1'),
    dataDir: folder,
    logLines,
    async stop() {
      await service.close(1_000);
      if (dataDir === undefined) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** POSTs a JSON body (or raw text with a content type) and returns status, headers and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  options: { raw?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': options.contentType ?? 'application/json', ...options.headers },
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left as text: the assertion on the body will say what came back.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
