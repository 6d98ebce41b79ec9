/** What other layers use of render-node/store: the room's public surface. */
export { openDatabase } from './db';
export { createKey, listKeys, revokeKey } from './keys';
export { parseJsonColumn, parseOptionalRow, parseRow } from './db-rows';
export type { Db } from './db';
export { RENDER_STATUSES, REQUEUE_STATUSES, RUNNER_STATUSES, statusesLeadingTo } from './job-states';
export { type JobRecord, JobsRepo } from './jobs-repo';
export { type EstimateRecord, EstimatesRepo } from './estimates-repo';
export { type ApiKeyInfo, isKeyActive, verifyKey } from './keys';
export { type UploadRecord, UploadsRepo } from './uploads-repo';
