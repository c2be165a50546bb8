// What `npm run bench` (bench.ts) and `npm run bench:pg` (pg-scale.ts) both use to start, load and measure
// the service: the same logic in one place, so the two benches count alike.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

/** A port free on 127.0.0.1 at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat; undefined off Linux. */
const CLOCK_TICKS_PER_SECOND = Number(process.env.BENCH_CLK_TCK ?? 100);
export function cpuMs(pid: number | undefined): number | undefined {
  const file = `/proc/${String(pid)}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After "pid (comm) ": state is field 3, utime 14 and stime 15 (man 5 proc).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** A different caller for every request: 10.0.0.1, 10.0.0.2, ... (16 M of them). */
let nextCaller = 0;
export function distinctCaller(): string {
  nextCaller = (nextCaller + 1) % 0xffffff;
  return `10.${(nextCaller >> 16) & 255}.${(nextCaller >> 8) & 255}.${nextCaller & 255}`;
}

export const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * A live lineup pointed at the simulator, with demo- model ids so the budget prices them at 0 (the
 * service's environment for these settings).
 */
export function simulatorLineup(simulatorUrl: string): NodeJS.ProcessEnv {
  return {
    PROVIDER_MODE: 'live',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: `${simulatorUrl}/v1`,
    OPENAI_MODEL: 'demo-gpt-4.1-mini',
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: simulatorUrl,
    ANTHROPIC_MODEL: 'demo-claude-sonnet-4-5',
    GEMINI_API_KEY: 'bench',
    GEMINI_BASE_URL: simulatorUrl,
    GEMINI_MODEL: 'demo-gemini-2.5-flash',
  };
}
