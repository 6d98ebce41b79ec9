import { recordedRenderConfig, type SubmissionRecord } from '../../core/journal';
import type { RenderProposal } from '../../core/lifecycle';
import { analysisForArtist } from '../../core/packing';
import { estimateOf, type Job, jobWarningsOf } from '../../shared/api';
import { renderShapeFrom } from '../../shared/render';
import type { BlenderChoiceView, ReviewSheet, StudioChoiceView } from '../../shared/contract';
import type { NodeWorkers, RenderConfig } from '../../shared/api';
import { chooseBlenderVersion, pickedBlenderVersion, versionsOpening } from '../../shared/blender-versions';
import type { AppPreferences } from '../environment';
import { type ProfileJobs, readAnalysis } from '../jobs';
import { sceneFilesOf, warningsForArtist } from '../files';
import { detectedConfig, fitToAnalysis } from './review-defaults';

/** A submission waiting for review, as the review sheet needs it. */
export interface AwaitingReview {
  record: SubmissionRecord;
  proposal: RenderProposal;
  /** The artist's paths of the files that travelled in the bundle. */
  paths: Parameters<typeof analysisForArtist>[2];
  /** Whether this is a job sent again ("Submit again"). */
  again: boolean;
}

/**
 * What validation detected and the settings to start from. Files the farm reports missing are named
 * as the artist knows them (mapped back through the pack summary); files that travelled are not.
 */
export function reviewSheetOf(
  submissionId: string,
  waiting: AwaitingReview,
  deps: { prefs: Pick<AppPreferences, 'lastSettings'>; jobs: Pick<ProfileJobs, 'estimateBasis'> },
  farmBlenders: readonly string[] | null = null,
  studio: StudioChoiceView | null = null,
): ReviewSheet {
  const { record, proposal } = waiting;
  const analysis = readAnalysis(analysisForArtist(proposal.analysis, record.packing, waiting.paths));
  const recorded = recordedRenderConfig(record);
  const remembered = recorded ?? deps.prefs.lastSettings(record.file.name);
  const blender = blenderChoiceOf(analysis?.savedWithBlender ?? null, farmBlenders);
  return {
    submissionId,
    jobId: proposal.job.id,
    fileName: record.file.name,
    analysis,
    warnings: warningsForArtist(analysis ? jobWarningsOf({ status: proposal.job.status, analysis }) : [], waiting.paths),
    defaults: withStudioOf(withBlenderOf(remembered ? fitToAnalysis(remembered, analysis) : detectedConfig(analysis), blender), studio),
    fromLastTime: recorded === null && remembered !== null,
    fromEarlierJob: waiting.again && recorded !== null,
    ...(record.packing ? { files: sceneFilesOf(record.packing, waiting.paths) } : {}),
    estimateFrom: deps.jobs.estimateBasis(proposal.job),
    ...(blender ? { blender } : {}),
    ...(studio ? { studio } : {}),
  };
}

/** A Renderdrop node's estimate of a validated job at the scene's own settings (from its sample render); null without one. */
export function nodeEstimateOf(job: Job): ReviewSheet['nodeEstimate'] | null {
  const estimate = estimateOf(job);
  const shape = renderShapeFrom(null, job.analysis);
  if (!estimate || estimate.basis !== 'sample' || !shape) return null;
  return { seconds: estimate.seconds, low: estimate.low, high: estimate.high, shape, ...(estimate.model ? { model: estimate.model } : {}) };
}

/**
 * What a Renderdrop node offers the review (a priority, worker tags, the frame order) when its worker list shows it
 * knows them (the node's own tags, or its list of blocks); null for an older node.
 */
export function studioChoiceOf(view: NodeWorkers | null): StudioChoiceView | null {
  if (view === null) return null;
  if (view.mode === 'embedded') return view.tags !== undefined ? { workerTags: [...view.tags].sort(), renders: 'node' } : null;
  if (view.blocks === undefined) return null;
  return { workerTags: [...new Set(view.workers.filter((w) => w.state !== 'offline').flatMap((w) => w.tags ?? []))].sort(), renders: 'workers' };
}

/** The settings without a remembered priority, required tags or frame order on a farm that takes none. */
function withStudioOf(config: RenderConfig, studio: StudioChoiceView | null): RenderConfig {
  if (studio !== null || (config.priority === undefined && config.requires === undefined && config.frameOrder === undefined)) return config;
  const rest = { ...config };
  delete rest.priority;
  delete rest.requires;
  delete rest.frameOrder;
  return rest;
}

/**
 * The Blender versions offered for a scene saved by the series `saved` (null: unknown) on a farm with
 * `farm` (null: it does not list them): those at or above the scene's, when there are several.
 */
export function blenderChoiceOf(saved: string | null, farm: readonly string[] | null): BlenderChoiceView | undefined {
  const versions = versionsOpening(saved, farm ?? []);
  const farmChoice = chooseBlenderVersion(saved, versions);
  return versions.length > 1 && farmChoice !== null ? { farmChoice, versions } : undefined;
}

/** The settings with a remembered Blender version kept only when it is still offered. */
function withBlenderOf(config: RenderConfig, blender: BlenderChoiceView | undefined): RenderConfig {
  if (config.blenderVersion === undefined) return config;
  if (blender && pickedBlenderVersion(config.blenderVersion, blender.versions) !== null) return config;
  const rest = { ...config };
  delete rest.blenderVersion;
  return rest;
}
