import { Router } from 'express';
import type { RouteContext } from '../route-context.js';

/** Sign-in by one-time link, sign-out, the account JSON endpoints and the /account page. */
export function authRoutes(_context: RouteContext): Router {
  return Router();
}
