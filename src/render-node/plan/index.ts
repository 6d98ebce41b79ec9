/** What other layers use of render-node/plan: the room's public surface. */
export { type RenderLimits } from './render-limits';
export { drawingFor, drawingOf, engineName, needsDrawing, pickBlender, type RenderedBy, type Renderer, rendererFindings, withBlenderWarning } from './blender-choice';
export { farmChanges } from './farm-changes';
export type { NodeCapabilities } from './node-capabilities';
export { estimateRenderBytes } from './output-estimate';
export { admitRender } from './render-admission';
export { DEFAULT_RENDER_LIMITS } from './render-limits';
export { planRender, type RenderPlan, renderOrderOf, renderPlanSchema } from './render-plan';
export { missingTags, nodeTagsNote, tagsInWords } from './worker-tags';
