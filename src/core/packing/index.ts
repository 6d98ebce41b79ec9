/** What other layers use of core/packing: the room's public surface. */
export { analysisForArtist } from './farm-findings';
export { type ArtistPaths, describeMissing } from './missing-files';
export { missingPlaces, type PackSummary } from './pack-summary';
