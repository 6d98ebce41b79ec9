/** What other layers use of render-node/distributed: the room's public surface. */
export { checkRedis, checkRedisUrl, redactRedisUrl, type RedisTarget, RedisUnavailableError, urlHasPassword } from './redis-connection';
export { checkNodeUrl, workerFacingUrl } from './node-address';
export { createWorkerSecretFile, parseWorkerSecret, WORKER_SECRET_FILE, WorkerSecretError } from './worker-secret';
