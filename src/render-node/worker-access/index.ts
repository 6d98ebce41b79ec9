/** How render workers and their node reach each other: the Redis URL (checked, and shown without its password), the node's address as workers see it, the worker secret. */
export { checkRedisUrl, redactRedisUrl, type RedisTarget, RedisUnavailableError, urlHasPassword } from './redis-url';
export { checkNodeUrl, workerFacingUrl } from './node-address';
export { createWorkerSecretFile, parseWorkerSecret, WORKER_SECRET_FILE, WorkerSecretError, workerKeys, type WorkerKeys } from './worker-secret';
