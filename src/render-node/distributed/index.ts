/** What other layers use of render-node/distributed: the room's public surface. */
export { checkRedis, checkRedisUrl, redactRedisUrl, type RedisTarget, RedisUnavailableError, urlHasPassword } from './redis-connection';
