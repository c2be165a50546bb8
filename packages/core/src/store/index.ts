export { applyMigrations, currentSchemaVersion, MIGRATIONS, SchemaTooNewError } from './migrations.js';
export type { Migration } from './migrations.js';
export { Repository } from './repository.js';
export type { ProviderCallRecord, ProviderCallTotals } from './repository.js';
export { openStore } from './store.js';
export type { OpenStoreOptions, Store } from './store.js';
