// Baseline for `npm run bench`: a bare node:http server answering the same bytes as the service.
// Reads {path: {status, contentType, body}} from argv[2] (a JSON file) and prints its port.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const routes = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const fallback = routes['*'];
const server = createServer((request, response) => {
  const route = routes[request.url] ?? fallback;
  response.writeHead(route.status, { 'Content-Type': route.contentType, 'Content-Length': Buffer.byteLength(route.body) });
  response.end(route.body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
