/** What other rooms of host use of host/files: the room's public surface. */
export { markUnchecked, sceneFilesOf, warningsForArtist } from './unchecked-files';
