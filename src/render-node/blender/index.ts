/** What other layers use of render-node/blender: the room's public surface. */
export { type DoctorReport, eeveeFinding, formatDoctorReport, runDoctor } from './doctor';
export { type BlenderInfo } from './probe';
export type { AnalysisFacts, SceneReaderFacts } from './analysis-facts';
export { analyzeScene, type AnalyzeSceneOptions, type RawAnalysis, toSceneAnalysis, withoutDirectories } from './analyze';
export { makePreview } from './preview';
export { isBlenderProcessAlive, killProcessTree } from './process-tree';
export { type BlenderRenderPlan, type RenderStep, startRender } from './render';
export { SceneAnalysisError } from './scene-analysis-error';
export { withTempDir } from './temp-env';
