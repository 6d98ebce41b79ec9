/** What other layers use of core/verify: the room's public surface. */
export { type FolderCheck } from './check-folder';
export { recordMissingFrames, sceneRefusal } from './render-missing';
export { framesToRender, type JobFolderCheck, verifyJobFolder } from './verify-job-folder';
