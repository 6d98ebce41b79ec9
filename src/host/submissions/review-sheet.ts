import { recordedRenderConfig, type SubmissionRecord } from '../../core/journal';
import type { RenderProposal } from '../../core/lifecycle';
import { analysisForArtist } from '../../core/packing';
import { jobWarningsOf } from '../../shared/api';
import type { ReviewSheet } from '../../shared/contract';
import type { AppPreferences } from '../app/app-preferences';
import type { ProfileJobs } from '../jobs/profile-jobs';
import { sceneFilesOf, warningsForArtist } from '../files/unchecked-files';
import { detectedConfig, fitToAnalysis, readAnalysis } from './review-defaults';

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
export function reviewSheetOf(submissionId: string, waiting: AwaitingReview, deps: { prefs: Pick<AppPreferences, 'lastSettings'>; jobs: Pick<ProfileJobs, 'estimateBasis'> }): ReviewSheet {
  const { record, proposal } = waiting;
  const analysis = readAnalysis(analysisForArtist(proposal.analysis, record.packing, waiting.paths));
  const recorded = recordedRenderConfig(record);
  const remembered = recorded ?? deps.prefs.lastSettings(record.file.name);
  return {
    submissionId,
    jobId: proposal.job.id,
    fileName: record.file.name,
    analysis,
    warnings: warningsForArtist(analysis ? jobWarningsOf({ status: proposal.job.status, analysis }) : [], waiting.paths),
    defaults: remembered ? fitToAnalysis(remembered, analysis) : detectedConfig(analysis),
    fromLastTime: recorded === null && remembered !== null,
    fromEarlierJob: waiting.again && recorded !== null,
    ...(record.packing ? { files: sceneFilesOf(record.packing, waiting.paths) } : {}),
    estimateFrom: deps.jobs.estimateBasis(proposal.job),
  };
}
