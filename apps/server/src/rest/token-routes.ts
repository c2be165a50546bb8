import { Router } from 'express';
import type { RouteContext } from '../route-context.js';

/** Badge and share tokens: minting by the owner, and GET /api/badge/{token}. */
export function tokenRoutes(_context: RouteContext): Router {
  return Router();
}
