/** What an action works with, for the other rooms of cli: its context (profile, client, journal), the job it names, the render settings its options ask for. */
export { CliContext } from './cli-context';
export { resolveJobId } from './resolve-job-id';
export { renderConfigFrom, type RenderOverrides } from './render-overrides';
export { checkFrameOrder, checkStudioAsks, studioFarmWorkers } from './studio-farm';
