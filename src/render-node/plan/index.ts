/** What other layers use of render-node/plan: the room's public surface. */
export { parseByteSize, parseDuration, parsePixelCount } from './limit-options';
export { type RenderLimits } from './render-limits';
