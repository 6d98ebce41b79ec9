/** Packing for people: the project folder a scene packs from (`--project`), `pack`'s plan and warnings, the files that travel or are missing. */
export { formatPackPlan, packWarnings } from './format-pack-plan';
export { formatPackingSummary } from './format-packing';
export { projectFor, projectLine } from './project-option';
