#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startSimulator } from './server.js';

const USAGE = 'usage: node dist/cli.js [--port 4010] [--host 127.0.0.1] [--seed 42] [--latency 0]';

function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative number\n${USAGE}`);
  return parsed;
}

/** Runs the simulator as its own process and prints one line with its URL. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      latency: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const seed = numberOption(values.seed, 'seed', 42);
  const simulator = await startSimulator({
    port: numberOption(values.port, 'port', 4010),
    host: values.host ?? '127.0.0.1',
    seed,
    latencyMs: numberOption(values.latency, 'latency', 0),
  });
  process.stdout.write(`AI provider simulator listening on ${simulator.url} (seed ${seed})\n`);
  const stop = (): void => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
