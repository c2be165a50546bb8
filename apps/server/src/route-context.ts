import type { Config, Logger } from '@visibility/core';
import type { Runtime } from './runtime.js';

/** What a route module gets: the config, the shared runtime (store, lineup, budget, limiter, mailer) and the logger. */
export interface RouteContext {
  config: Config;
  runtime: Runtime;
  logger: Logger;
}
