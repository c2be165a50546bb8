// Loaded into the service by `npm run bench` only (`node --import`), never in production. Samples
// process.memoryUsage() every 50 ms and answers the bench's IPC message {type: 'memory', reset}
// with the current figures and the peaks since the last reset. The figures are what the process holds,
// garbage included, as an operator's RSS graph would show; only the last ask, after the load, may ask
// for a full collection first (the service runs with --expose-gc, which changes no GC heuristics) to tell
// live memory from garbage.
const FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'];

if (typeof process.send === 'function') {
  let peak = Object.fromEntries(FIELDS.map((field) => [field, 0]));
  const sample = () => {
    const usage = process.memoryUsage();
    for (const field of FIELDS) peak[field] = Math.max(peak[field], usage[field]);
    return usage;
  };
  setInterval(sample, 50).unref();
  process.on('message', (message) => {
    if (message === null || typeof message !== 'object' || message.type !== 'memory') return;
    // {gc: true}, once the load is over: collect first (needs --expose-gc), so `current` is what is live.
    if (message.gc === true && typeof globalThis.gc === 'function') globalThis.gc();
    const current = sample();
    process.send({ type: 'memory', id: message.id, current, peak: { ...peak } });
    if (message.reset === true) peak = Object.fromEntries(FIELDS.map((field) => [field, current[field]]));
  });
  // The channel must not keep the service alive once it has stopped serving.
  process.channel?.unref();
}
