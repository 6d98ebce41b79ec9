import { randomUUID } from 'node:crypto';
import type { AnalysisWarning, FailedReason, SceneAnalysis } from '../../shared/api';
import type { JobRecord, JobsRepo } from '../store';
import type { BlenderRuntime } from './blender-runtime';
import { SceneAnalysisError } from '../blender';
import { analyzeSceneQuickly, prepareScene, reportSeveredAsStored, type ScenePrepareDeps, ZipError } from '../scene';
import { planVideo } from '../video';
import { diskFullReason, isDiskFullError } from '../disk';
import { BlendError } from '../../blend/reader';
import { type RenderedBy, type Renderer, rendererFindings } from '../plan';

/** What the artist is told of a scene whose files the node's reader tripped on. */
const UNREADABLE = 'The scene is damaged or is not a .blend Renderdrop can read. Open it in Blender, save it again and submit it again.';

/** What a validation needs from the node. */
export interface ValidateStepDeps extends ScenePrepareDeps {
  /** What the farm will render differently from the scene as saved (farm-change warnings), given the video encoders found. */
  farmChanges?: (analysis: SceneAnalysis, videoEncoders: readonly string[] | null) => AnalysisWarning[];
  /** The video encoders of the node's FFmpeg (null: it makes no videos), asked only for a scene whose output is a video. */
  videoEncoders?: () => Promise<readonly string[] | null>;
  jobs: JobsRepo;
  blender: BlenderRuntime;
  env: NodeJS.ProcessEnv;
  analysisTimeoutMs: number;
  onSpawn: (pid: number) => void;
  /** Told every line Blender prints (the job's log). */
  onLog?: (line: string) => void;
  /** The Blenders that will render the scene (the node's own, or its render workers'), and which they are. */
  renderers?: { by: RenderedBy; list: () => Promise<Renderer[] | null> };
}

/** How a validation ended: the job is validated, failed with a reason, or was stopped. */
export type ValidateOutcome = { kind: 'validated' } | { kind: 'failed'; reason: FailedReason } | { kind: 'aborted' };

/** Put the scene in place, analyse it with Blender and record the analysis. */
export async function runValidateStep(deps: ValidateStepDeps, job: JobRecord, signal: AbortSignal): Promise<ValidateOutcome> {
  let prepared;
  try {
    prepared = await prepareScene(job, deps);
  } catch (err) {
    if (isDiskFullError(err)) return { kind: 'failed', reason: diskFullReason('the scene could not be unpacked') };
    if (err instanceof ZipError) return { kind: 'failed', reason: { name: err.reasonName, type: 'zip', message: err.message } };
    if (err instanceof BlendError) return { kind: 'failed', reason: { name: 'SceneUnreadable', type: 'scene', message: UNREADABLE } };
    throw err;
  }
  if (!prepared.ok) return { kind: 'failed', reason: prepared.reason };
  let analysis: SceneAnalysis;
  try {
    ({ analysis } = await analyzeSceneQuickly({
      reader: deps.blender.reader ?? null,
      runsScenePython: deps.blender.runsScenePython === true,
      blenderPath: deps.blender.path,
      scenePath: prepared.scenePath,
      sceneRoot: deps.sceneDir,
      nodeBlenderVersion: deps.blender.version,
      timeoutMs: deps.analysisTimeoutMs,
      signal,
      env: deps.env,
      tempDir: deps.tempDir,
      onSpawn: deps.onSpawn,
      onLine: deps.onLog,
    }));
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    if (isDiskFullError(err)) return { kind: 'failed', reason: diskFullReason('the scene could not be analysed') };
    if (err instanceof SceneAnalysisError) return { kind: 'failed', reason: { name: err.name, type: err.type, message: err.message } };
    throw err;
  }
  const encoders = analysis.video && deps.videoEncoders ? await deps.videoEncoders() : null;
  analysis = withNodeWarnings(reportSeveredAsStored(analysis, prepared.severed), deps.blender, encoders);
  if (deps.renderers) {
    const findings = rendererFindings(analysis, await deps.renderers.list(), deps.renderers.by);
    if (findings.refusal) return { kind: 'failed', reason: findings.refusal };
    if (findings.warnings.length > 0) analysis = { ...analysis, warnings: [...analysis.warnings, ...findings.warnings] };
  }
  const changes = deps.farmChanges?.(analysis, encoders) ?? [];
  if (changes.length > 0) analysis = { ...analysis, warnings: [...analysis.warnings, ...changes] };
  deps.jobs.transition(job.id, ['validating'], 'validated', {
    analysis,
    analysisId: randomUUID(),
    totalFrames: analysis.totalFrames,
    sceneFile: { ...job.sceneFile!, scenePath: prepared.relative },
  });
  return { kind: 'validated' };
}

function withNodeWarnings(analysis: SceneAnalysis, blender: BlenderRuntime, videoEncoders: readonly string[] | null): SceneAnalysis {
  const warnings = [...analysis.warnings, ...videoWarnings(analysis, videoEncoders)];
  if (analysis.denoisingEnabled && !blender.openImageDenoise && !(analysis.denoiser === 'OPTIX' && blender.optix)) {
    warnings.push({
      code: 'denoiser-unavailable',
      message: `The scene uses denoising (${analysis.denoiser ?? 'default'}), but this node's Blender has no denoiser; it will be switched off.`,
    });
  }
  return { ...analysis, warnings };
}

/** A `video-frames-only` warning when the scene's output is a video this node cannot make (no FFmpeg, no encoder for it). */
function videoWarnings(analysis: SceneAnalysis, encoders: readonly string[] | null): AnalysisWarning[] {
  if (!analysis.video) return [];
  const decision = planVideo({
    video: analysis.video,
    fps: analysis.fps,
    fpsBase: analysis.fpsBase,
    fileNamePattern: 'frame_####',
    firstFrame: analysis.frameStart,
    lastFrame: analysis.frameEnd,
    alpha: analysis.outputSettings.colorMode === 'RGBA',
    encoders,
  });
  return decision.ok ? [] : [{ code: 'video-frames-only', message: decision.reason }];
}
