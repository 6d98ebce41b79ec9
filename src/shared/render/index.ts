/** What other layers use of shared/render: the room's public surface. */
export { describeFrames, formatFrames, MAX_FRAMES_PER_JOB, parseFrameRanges, sceneFrames } from './frame-ranges';
export { estimateRender, etaFromFrameRate, type PastRender, type RenderEstimate, type RenderShape } from './render-estimate';
