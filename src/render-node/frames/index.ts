/** A render's frames, for the node and its workers alike: the names it must deliver, whether a delivered frame is whole, its previews. */
export { verifyFrame } from './frame-acceptance';
export { expectedFrameNames } from './frame-names';
export { framePreviewName, framePreviews, latestFramePreview } from './frame-previews';
export { acceptFrame, acceptWrittenFrames, removeIncompleteFrames } from './frame-acceptance';
