/** What other layers use of render-node/distributed: the room's public surface. */
export { routeChunk } from './blender-versions';
export { isPlainName } from './plain-name';
export { describeFrames } from './chunk-plan';
export { tamperedReason, verifyChunk } from './chunk-signature';
export { CHUNK_QUEUE, type ChunkData, chunkPathPrefix, type ChunkStatus, chunkStatusSchema, JOB_KEY_TTL_SECONDS, MAX_FAILURES_PER_WORKER, REDIS_PREFIX, redisKeys, WORKER_HEARTBEAT_MS } from './protocol';
export { checkRedis, openRedis } from './redis-connection';
export { EMPTY_BODY_SHA256, signWorkerRequest } from './request-signature';
export { liveWorkers, markWorkerOffline, reportWorker } from './worker-registry';
export { blockedByHand, recordFailureBlock } from './worker-blocks';
