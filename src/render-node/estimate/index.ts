/** What other rooms of render-node use of render-node/estimate: the room's public surface. */
export { JobEstimates, type JobEstimatesDeps, SAMPLE_DIR } from './job-estimates';
export { estimateFromSample, modelOf, sampleMeasureSchema, type RenderTarget, type SampleMeasure, type TimeRange } from './sample-model';
export { ladderDone, ladderSamples, runSampleRender, smallSize, type SampleScene } from './sample-render';
export { timeLeftFromFrames } from './time-left';
export { estimateStats, type EstimateStats } from './estimate-stats';
