import type { Config, Logger } from '@visibility/core';
import type { Runtime } from './runtime.js';
import type { LayoutContext } from './site/layout.js';

/** What a route module gets: the config, the shared runtime (store, lineup, budget, limiter, mailer) and the logger. */
export interface RouteContext {
  config: Config;
  runtime: Runtime;
  logger: Logger;
  /** The site's layout, for the pages route modules render (the account page). */
  siteLayout?: LayoutContext | undefined;
}
