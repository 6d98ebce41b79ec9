/** What other layers use of render-node/http: the room's public surface. */
export { parseRateLimit } from './rate-limit';
