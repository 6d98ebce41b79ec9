/** What other layers use of core/verify: the room's public surface. */
export { type FolderCheck } from './check-folder';
export { recordMissingFrames, sceneRefusal } from './render-missing';
export { framesToRender, type JobFolderCheck, verifyJobFolder } from './verify-job-folder';
export { recordFramesAgain } from './render-missing';
export { requeueOrResend, type RequeueInput, type RequeueOutcome } from './requeue-or-resend';
