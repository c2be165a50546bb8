import { createMemoryJobStore } from './memory-job-store.js';
import { jobStoreContract } from './test-support/job-store-contract.js';
import { useTempStores } from '../store/test-support/temp-stores.js';

const stores = useTempStores('job-store');

// Two connections to one SQLite file stand for two processes.
jobStoreContract('SQLite', async () => ({ first: stores.open().jobRepository, second: stores.open().jobRepository }));

jobStoreContract('memory', async () => {
  const store = createMemoryJobStore();
  return { first: store, second: store };
});
