/** What other layers use of shared/render: the room's public surface. */
export { describeFrames, formatFrames, MAX_FRAMES_PER_JOB, parseFrameRanges, sceneFrames } from '../frame-ranges';
export { estimateBasisSentence, estimateRender, estimateSentence, type EstimateBasis, type PastRender, type RenderEstimate, type RenderShape } from './render-estimate';
export { isWaitingInLine, renderClockOf, renderTimingOf, timeLeftFromFrameRate, type FarmLeft, type FramesSeen, type RenderClock, type RenderTiming, type WaitingInLine } from './render-clock';
export { clockFact, clockShortText, rowTimeText, startsInText, waitingText, waitingWords, type RowTimeText } from './render-clock-text';
export { renderShapeFrom, renderTargetFrom } from './render-shape';
export { clockSummaryOf, framesSeenAfter, type ClockSummary } from './clock-summary';
export { requeueDetail, requeueRequestOf, selectRequeueFrames, type RequeueSelection } from './requeue-frames';
export { renderedByText } from './rendered-by';
export { framesInOrder, spreadOrder } from './spread-order';
export { estimatedTookText, estimateRangeText, estimateReviewText, jobEstimateText, renderTookSeconds, roughDuration, roughRange } from './estimate-words';
export { scaleEstimate, type RangedSeconds } from './node-estimate-scale';
export { estimateWithModel, FRAME_NOISE_SECONDS, frameSecondsAt, interpolateAt, pixelSecondsAt, rangeAround, relativeSpread, type EstimateModel, type EstimateTarget } from './estimate-model';
