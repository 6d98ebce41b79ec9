/** What other layers use of core/packing: the room's public surface. */
export { BUNDLE_TOO_LARGE_ADVICE, bundleOverLimit } from './bundle-limit';
export { analysisForArtist } from './farm-findings';
export { type ArtistPaths, describeMissing, type MissingFile, missingFiles, missingSentence } from './missing-files';
export { missingPlaces, type PackSummary, summarizePlan } from './pack-summary';
export { folderBoundary, holdPrivateFiles, leftOutFiles, type HeldPlan, type PackBoundary, type PrivateFile } from './private-files';
export { allowedOutside, inProject, isWithin, privateLook, privateOutsideProject, type PrivateLook, secretPlace } from './private-paths';
export { projectProblem, ProjectRoots, suggestProject } from './project-roots';
export { packSummarySchema } from './pack-summary';
