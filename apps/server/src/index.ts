export { createApp } from './app.js';
export type { AppDependencies } from './app.js';
export { ApiError, sendApiError } from './http/api-error.js';
export type { ApiErrorBody } from './http/api-error.js';
export { startService } from './service.js';
export type { RunningService } from './service.js';
export { SERVICE_VERSION } from './version.js';
