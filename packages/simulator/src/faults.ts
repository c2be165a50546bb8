import type { FaultSpec, WireProvider } from './types.js';

const PROVIDERS: readonly WireProvider[] = ['openai', 'anthropic', 'gemini'];
const KINDS: readonly FaultSpec['kind'][] = ['rate_limit', 'server_error', 'hang'];

interface PendingFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/** Faults waiting for requests: each matching request takes the oldest matching fault and uses up one of its `times`. */
export class FaultQueue {
  private pending: PendingFault[] = [];

  /** Appends faults to the queue (each `times` defaults to 1). */
  add(faults: readonly FaultSpec[]): void {
    for (const spec of faults) this.pending.push({ spec: { ...spec }, remaining: spec.times ?? 1 });
  }

  /** Takes the fault for a request from this provider, or undefined when none applies. */
  take(provider: WireProvider): FaultSpec | undefined {
    const index = this.pending.findIndex((fault) => fault.spec.provider === undefined || fault.spec.provider === provider);
    const fault = this.pending[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.pending.splice(index, 1);
    return fault.spec;
  }

  clear(): void {
    this.pending = [];
  }

  /** The faults still queued, with how many uses each has left. */
  list(): FaultSpec[] {
    return this.pending.map((fault) => ({ ...fault.spec, times: fault.remaining }));
  }
}

/** Checks a JSON value is a list of fault specs; returns them or the reason they are not. */
export function parseFaultSpecs(value: unknown): { faults: FaultSpec[] } | { error: string } {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const faults: FaultSpec[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { error: `fault ${index} must be an object` };
    const fields = item as Record<string, unknown>;
    const kind = fields['kind'];
    if (!KINDS.includes(kind as FaultSpec['kind'])) return { error: `fault ${index}: kind must be one of ${KINDS.join(', ')}` };
    const provider = fields['provider'];
    if (provider !== undefined && !PROVIDERS.includes(provider as WireProvider)) {
      return { error: `fault ${index}: provider must be one of ${PROVIDERS.join(', ')}` };
    }
    const times = fields['times'];
    if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1)) return { error: `fault ${index}: times must be a positive integer` };
    const base = {
      ...(provider === undefined ? {} : { provider: provider as WireProvider }),
      ...(times === undefined ? {} : { times: times as number }),
    };
    if (kind === 'rate_limit') {
      const seconds = fields['retryAfterSeconds'];
      if (seconds !== undefined && !(typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0)) {
        return { error: `fault ${index}: retryAfterSeconds must be a number of seconds >= 0` };
      }
      faults.push({ kind, ...base, ...(seconds === undefined ? {} : { retryAfterSeconds: seconds as number }) });
    } else if (kind === 'server_error') {
      const status = fields['status'];
      if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 500 && (status as number) <= 599)) {
        return { error: `fault ${index}: status must be an integer from 500 to 599` };
      }
      faults.push({ kind, ...base, ...(status === undefined ? {} : { status: status as number }) });
    } else {
      faults.push({ kind: 'hang', ...base });
    }
  }
  return { faults };
}
