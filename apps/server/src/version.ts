/** The service's own version, reported by /health and the start-up log. */
export const SERVICE_VERSION = '0.1.0';
