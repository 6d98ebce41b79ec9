/** What other layers use of core/packing: the room's public surface. */
export { analysisForArtist } from './farm-findings';
export { type ArtistPaths, describeMissing, type MissingFile, missingFiles, missingSentence } from './missing-files';
export { missingPlaces, type PackSummary, summarizePlan } from './pack-summary';
