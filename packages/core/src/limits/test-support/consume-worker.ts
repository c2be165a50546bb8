// A separate OS process hammering one shared limit, to prove the counters are exact across processes.
// Usage: node --import tsx consume-worker.ts <dataDir> <attempts> <max> <startAtMs>
import { openStore } from '../../store/store.js';
import { createRateLimiter } from '../rate-limiter.js';

const [dataDir, attemptsText, maxText, startAtText] = process.argv.slice(2);
if (dataDir === undefined || attemptsText === undefined || maxText === undefined || startAtText === undefined) {
  throw new Error('usage: consume-worker <dataDir> <attempts> <max> <startAtMs>');
}
const store = openStore({ dataDir });
const fixedNow = new Date('2026-03-10T12:00:00Z');
const limiter = createRateLimiter(store.rateLimitRepository, {
  policies: { burst: [{ name: 'shared', max: Number(maxText), windowSeconds: 3600, scope: 'shared', code: 'rate_limited' }] },
  now: () => fixedNow,
});
// Spin until the common start moment so the processes really overlap.
while (Date.now() < Number(startAtText)) {
  // busy wait
}
let allowed = 0;
for (let attempt = 0; attempt < Number(attemptsText); attempt += 1) {
  if ((await limiter.consume('burst', `worker-${process.pid}`)).allowed) allowed += 1;
}
store.close();
process.stdout.write(`${JSON.stringify({ allowed })}\n`);
