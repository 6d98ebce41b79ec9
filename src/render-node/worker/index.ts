/** What other layers use of render-node/worker: the room's public surface. */
export { startRenderWorker } from './render-worker';
export { checkRedis } from '../distributed';
