import { Router } from 'express';
import type { RouteContext } from '../route-context.js';

/** POST and GET /api/audit/{auditId}/fanout-map (startBuyerQuestionMap, getBuyerQuestionMap). */
export function mapRoutes(_context: RouteContext): Router {
  return Router();
}
