/** What other rooms and layers use of render-node/video: making a job's video from its frames. */
export { encodeVideo, VideoError, type MadeVideo } from './encode-video';
export { findFfmpeg, lazyFfmpeg, type FfmpegLookup, type FfmpegTools } from './ffmpeg-tools';
export { planVideo, videoPlanSchema, type VideoDecision, type VideoPlan } from './video-plan';
