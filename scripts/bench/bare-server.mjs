// Baseline for `npm run bench`: a bare node:http server answering the same bytes as the service.
// Reads {url: {status, headers: [[name, value], ...], body}} from argv[2] (a JSON file; the key is the
// request URL as sent, "*" the fallback) and prints its port. The headers are the service's own
// (Date and the connection headers excepted, which node:http writes itself), so the bytes on the wire
// match the service's but for the Date and, where the service makes them per request, X-Request-Id
// and X-RateLimit-* values.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const routes = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const route of Object.values(routes)) route.buffer = Buffer.from(route.body, 'utf8');
const fallback = routes['*'];
const server = createServer((request, response) => {
  const route = routes[request.url] ?? fallback;
  response.writeHead(route.status, [...route.headers.flat(), 'Content-Length', String(route.buffer.length)]);
  response.end(route.buffer);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
