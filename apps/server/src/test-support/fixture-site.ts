import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small brand site served on 127.0.0.1, reached by the crawler through CRAWL_HOST_MAP. */
export interface FixtureSite {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export interface FixtureSiteOptions {
  pages: Record<string, { status?: number; type?: string; body: string }>;
  /** Answer this status to user agents containing this token (a CDN that blocks bots). */
  blockUserAgent?: { token: string; status: number };
}

/** Starts a fixture site; unknown paths answer 404. */
export async function startFixtureSite(options: FixtureSiteOptions): Promise<FixtureSite> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    requests.push(`${request.headers['user-agent'] ?? ''} ${path}`);
    const agent = request.headers['user-agent'] ?? '';
    if (options.blockUserAgent && agent.includes(options.blockUserAgent.token)) {
      response.writeHead(options.blockUserAgent.status, { 'content-type': 'text/html' }).end('<h1>Access denied</h1>');
      return;
    }
    const page = options.pages[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An English SaaS homepage whose robots.txt blocks GPTBot and the assistant-search crawlers. */
export const SAAS_SITE: FixtureSiteOptions = {
  pages: {
    '/': {
      body: `<!doctype html><html lang="en"><head><title>Pipedrive — the CRM for small sales teams</title>
<meta name="description" content="Sales CRM and pipeline management software for small businesses.">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Pipedrive","url":"https://www.pipedrive.com"}</script>
</head><body><h1>The CRM built for salespeople</h1><h2>Pipeline management</h2>
<a href="/pricing">Pricing</a> <a href="/features">Features</a></body></html>`,
    },
    '/pricing': { body: '<html lang="en"><head><title>Pricing</title></head><body><h1>Pricing</h1><p>Plans from $14.</p></body></html>' },
    '/features': { body: '<html lang="en"><head><title>Features</title></head><body><h1>Features</h1></body></html>' },
    '/robots.txt': {
      type: 'text/plain',
      body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    },
  },
};
