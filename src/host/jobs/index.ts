/** What other layers use of host/jobs: the room's public surface. */
export { systemOpenPath } from './open-path';
