import { Router } from 'express';
import type { ProviderMode, ProviderId } from '@visibility/core';

export interface HealthInfo {
  mode: ProviderMode;
  providers: Array<{ provider: ProviderId; model: string }>;
  version: string;
  startedAt: Date;
}

/** GET /health: liveness plus which lineup is answering; never touches a provider. */
export function healthRoutes(info: HealthInfo): Router {
  const router = Router();
  router.get('/health', (_request, response) => {
    response.setHeader('Cache-Control', 'no-store');
    response.json({
      status: 'ok',
      mode: info.mode,
      providers: info.providers,
      version: info.version,
      uptimeSeconds: Math.round((Date.now() - info.startedAt.getTime()) / 1000),
    });
  });
  return router;
}
