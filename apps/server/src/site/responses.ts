import type { ServerResponse } from 'node:http';

/** The spec leaves the 406 body open; ours is the ApiError shape, which every client here can read. */
export function notAcceptable(response: ServerResponse, baseUrl: string, available: string[]): void {
  const body = JSON.stringify({
    error: `This URL can only produce ${available.join(' or ')}, and the Accept header refuses ${available.length > 1 ? 'both' : 'it'}.`,
    code: 'not_acceptable',
    hint: `Send Accept: ${available.join(', ')} (or */*), or append .md to a page path for markdown.`,
    docs: `${baseUrl}/developers#markdown-views-and-discovery-files`,
  });
  response.writeHead(406, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Vary: 'Accept',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(body);
}
