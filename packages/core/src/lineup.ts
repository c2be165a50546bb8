import type { Config, ProviderSettings } from './config/config.js';
import { PROVIDER_IDS, type ProviderId } from './providers/types.js';

/** The model-id prefix that marks every demo answer as not coming from a real model. */
export const DEMO_MODEL_PREFIX = 'demo-';

/** Where the demo lineup's simulator listens, per provider wire format. */
export type DemoBaseUrls = Record<ProviderId, string>;

/**
 * The provider settings a measurement runs against: the configured live providers, or, in demo mode,
 * all three pointed at the simulator with `demo-` model ids so no answer passes for a real model's.
 */
export function resolveLineupSettings(
  config: Pick<Config, 'providerMode' | 'providers' | 'models'>,
  demoBaseUrls?: DemoBaseUrls,
): Partial<Record<ProviderId, ProviderSettings>> {
  if (config.providerMode === 'live') return { ...config.providers };
  if (demoBaseUrls === undefined) throw new Error('the demo lineup needs the simulator to be running');
  const settings: Partial<Record<ProviderId, ProviderSettings>> = {};
  for (const id of PROVIDER_IDS) {
    settings[id] = { apiKey: 'demo-key', baseURL: demoBaseUrls[id], model: `${DEMO_MODEL_PREFIX}${config.models[id]}` };
  }
  return settings;
}
