// Job leases and the one job runner (see runner.ts).

export { createMemoryJobStore } from './memory-job-store.js';
export {
  createJobRunner,
  DEFAULT_JOB_HEARTBEAT_MS,
  DEFAULT_JOB_LEASE_MS,
  DEFAULT_JOB_SCAN_BATCH,
  DEFAULT_JOB_SCAN_MS,
  JobRunner,
  processOwner,
} from './runner.js';
export type { JobContext, JobKindHandler, JobOutcome, JobRunnerOptions, JobWork } from './runner.js';
export type { JobLease, JobOwner, JobRecord, JobStatus, JobStore } from './types.js';
