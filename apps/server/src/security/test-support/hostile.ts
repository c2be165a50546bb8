import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FixtureSiteOptions } from '../../test-support/fixture-site.js';

// Payloads for the injection tests: each would run script, load something, or forge a link if any output
// placed it unescaped. Brands are at most 80 characters and categories 120 (the request bounds).

export const HOSTILE_BRANDS = [
  `"><img src=x onerror=alert(1)><script>alert(2)</script>`,
  `<svg><foreignObject><iframe src=javascript:alert(3)>[x](javascript:alert(4))`,
  // Full-width brackets (NFKC folds them to < >), literal \u escapes (a double decode would make <b>), CSS.
  `＜script＞alert(5)＜/script＞ \\u003cb\\u003e</b style=x:expression(alert(6))>`,
] as const;

export const HOSTILE_CATEGORIES = [
  `CRM software <script>alert(7)</script>`,
  `[CRM](javascript:alert(8)) "onmouseover="alert(9)`,
  `<style>body{background:url(javascript:alert(10))}</style> CRM`,
] as const;

export const HOSTILE_COMPETITORS = `<img src=x onerror=alert(15)>, [Evil](javascript:alert(16)), </title><script>alert(17)</script>`;

/** What the fake model says to every prompt: markup, links and CSS where brand names and reasons go. */
export const HOSTILE_ANSWER = [
  `Yes — <script>alert("model")</script> is a known brand. "><img src=x onerror=alert('model')>`,
  '',
  '1. **"><img src=x onerror=alert(11)>** — [Best pick](javascript:alert(12)).',
  '2. **<svg><foreignObject><iframe src=javascript:alert(13)></iframe></foreignObject></svg>** — good.',
  '3. **HubSpot** — popular <style>*{x:expression(alert(14))}</style>.',
  '4. **Salesforce** — enterprise ![pixel](https://evil.example/p.gif).',
].join('\n');

/** A brand site whose title, meta tags, JSON-LD and headings carry payloads. */
export const HOSTILE_SITE: FixtureSiteOptions = {
  pages: {
    '/': {
      body: `<!doctype html><html lang="en"><head>
<title>Acme &lt;/title&gt;&lt;script&gt;alert(20)&lt;/script&gt; CRM for "><img src=x onerror=alert(21)> teams</title>
<meta name="description" content="CRM for &lt;svg onload=alert(22)&gt; founders">
<meta property="og:title" content="&quot;&gt;&lt;script&gt;alert(23)&lt;/script&gt;">
<script type="application/ld+json">{"@context":"https://schema.org","@type":["Organization","<img src=x onerror=alert(24)>"],"name":"<\\/script><script>alert(25)<\\/script>","url":"javascript:alert(26)"}</script>
</head><body>
<h1>CRM for &lt;script&gt;alert(27)&lt;/script&gt; agencies</h1>
<h2>Pricing for [buyers](javascript:alert(28)) teams</h2>
<a href="/pricing">Pricing</a></body></html>`,
    },
    '/pricing': { body: '<html lang="en"><head><title>Pricing <iframe src=javascript:alert(29)></title></head><body><h1>Plans</h1></body></html>' },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  },
};

export interface FakeProvider {
  /** OPENAI_BASE_URL for the service. */
  baseUrl: string;
  prompts: string[];
  close(): Promise<void>;
}

/** An OpenAI-compatible endpoint (chat completions and responses) that answers every prompt with `answer`. */
export async function startFakeOpenAi(answer: string): Promise<FakeProvider> {
  const prompts: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: { messages?: Array<{ content?: unknown }>; input?: unknown; model?: string } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // An unreadable body still gets the answer; the adapter under test is not what is checked here.
      }
      const prompt = JSON.stringify(body.messages ?? body.input ?? '');
      prompts.push(prompt);
      const model = body.model ?? 'gpt-4.1-mini';
      const path = request.url ?? '';
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${prompts.length}` });
      if (path.endsWith('/responses')) {
        response.end(
          JSON.stringify({
            id: `resp_${prompts.length}`,
            object: 'response',
            created_at: Math.floor(Date.now() / 1000),
            status: 'completed',
            model,
            output: [{ type: 'message', id: `msg_${prompts.length}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [] }] }],
            usage: { input_tokens: 20, output_tokens: 80, total_tokens: 100 },
          }),
        );
        return;
      }
      response.end(
        JSON.stringify({
          id: `chatcmpl-${prompts.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 20, completion_tokens: 80, total_tokens: 100 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    prompts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
