/** What other layers use of shared/zip: the room's public surface. */
export { decodeEntryName, entryPath, isMacMetadataEntry } from './zip-entry-name';
export { blendFilesOf, defaultScene, namedScene } from './zip-scenes';
