import { randomUUID } from 'node:crypto';
import { createLogger } from '../../logging/logger.js';
import { fakeAnswer } from '../../providers/test-support/fake-provider.js';
import type { Answer, AskRequest, Provider, ProviderId } from '../../providers/types.js';
import type { Store } from '../../store/store.js';
import { createBuyerQuestionMapRunner } from '../runner.js';
import type { BuyerQuestionMapDependencies } from '../types.js';

export const QUESTIONS = [
  'Which CRM software would you recommend?',
  'What are the top CRM software for small businesses?',
  'On a tight budget, which CRM software would you choose?',
];

/** Stores an audit the way startVisibilityAudit does, with the given buyer questions. */
export async function insertAudit(store: Store, options: { questions?: string[]; email?: string; reason?: string } = {}): Promise<string> {
  const id = randomUUID();
  const questions = options.questions ?? QUESTIONS;
  await store.auditRepository.insertAudit({
    id,
    createdAt: new Date().toISOString(),
    brand: 'Pipedrive',
    brandKey: 'pipedrive',
    website: 'https://pipedrive.test/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: options.email,
    mode: 'demo',
    measured: true,
    score: 50,
    response: {
      id,
      audit: { brand: 'Pipedrive', website: 'https://pipedrive.test/' },
      productFanout: questions.length > 0 ? { questions, language: 'en' } : null,
      ...(questions.length === 0 ? { fanoutMissingReason: options.reason ?? 'No category.' } : {}),
      competitors: [{ name: 'HubSpot', watched: true, rank: 1, namedInstead: 0, mentions: 0, byProvider: {} }],
    },
  });
  return id;
}

/** A provider whose answers are decided per call; it counts calls per prompt and in flight. */
export class ScriptedProvider implements Provider {
  readonly calls: AskRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    readonly id: ProviderId,
    readonly model: string,
    private readonly respond: (request: AskRequest, provider: ScriptedProvider) => Promise<Answer> | Answer = (_request, provider) =>
      fakeAnswer(`1. **HubSpot** – popular.\n2. **Pipedrive** – visual pipeline.\n3. **Zoho CRM** – cheap.`, provider.id),
  ) {}

  async ask(request: AskRequest): Promise<Answer> {
    this.calls.push(request);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await this.respond(request, this);
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** Map dependencies over a store and providers, with a fresh runner and a silent logger. */
export function mapDependencies(store: Store, providers: Provider[], options: { mode?: 'demo' | 'live'; concurrency?: number } = {}): BuyerQuestionMapDependencies {
  return {
    lineup: new Map(providers.map((provider) => [provider.id, provider])),
    mode: options.mode ?? 'demo',
    auditRepository: store.auditRepository,
    accountRepository: store.accountRepository,
    mapStore: store.mapStore,
    mapRepository: store.mapRepository,
    runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: options.concurrency ?? 2 }),
    logger: createLogger({ level: 'silent' }),
  };
}

/** Resolves after a number of milliseconds. */
export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Waits until a condition holds, polling every 5 ms, or throws after a timeout. */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}
