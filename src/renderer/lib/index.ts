/** What other rooms of renderer use of renderer/lib: the room's public surface. */
export { blenderAddonRow } from './blender-addon-row';
export { closeJobDetails } from './close-job-details';
export { command } from './command';
export { useDialogFocus } from './dialog-focus';
export { createEventRouter } from './event-router';
export { fileListAction } from './file-browser-keys';
export { checkFrameRangeText } from './frame-range-check';
export { cancelJob, renderFramesAgain, submitAgain } from './job-actions';
export { formatWhen } from './job-times';
export { type QueueItem, queueItems, type SceneRun } from './queue-items';
export { removeFromList } from './remove-from-list';
export { reviewActions, type ReviewActions } from './review-actions';
export { isPending, isReady, reviewEntries, type ReviewEntry } from './review-batch';
export { reviewEstimate } from './review-estimate';
export { formFromConfig, reviewErrors, type ReviewForm, sceneRangeOf } from './review-form';
export { groupRuns } from './scene-groups';
export { type PickedScene, submitFiles, submitPaths } from './submit-files';
export { applyTheme } from './theme';
