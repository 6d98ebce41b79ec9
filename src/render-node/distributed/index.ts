/** What other layers use of render-node/distributed: the room's public surface. */
export { checkRedisUrl, redactRedisUrl, type RedisTarget, RedisUnavailableError, urlHasPassword } from './redis-url';
export { checkNodeUrl, workerFacingUrl } from './node-address';
export { createWorkerSecretFile, parseWorkerSecret, WORKER_SECRET_FILE, WorkerSecretError } from './worker-secret';
