import { z } from 'zod';
import type { Job } from '../../shared/api/job';
import type { RenderConfig } from '../../shared/api/render-config';
import { recordedRenderConfig, type SubmissionRecord } from '../journal/submission-record';
import type { RenderProposal } from './lifecycle-events';

/** The configuration a render starts with when nobody chose one. */
export const DEFAULT_RENDER_CONFIG: RenderConfig = { colorManagementPreset: 'default' };

const camerasSchema = z.looseObject({ cameras: z.array(z.string()) });

/** Why a render configuration cannot work with the scene validation found, checked before anything is sent; null when it can. */
export function renderConfigProblem(analysis: unknown, config: RenderConfig): string | null {
  const parsed = camerasSchema.safeParse(analysis);
  const cameras = parsed.success ? parsed.data.cameras : [];
  if (config.activeCamera && cameras.length > 0 && !cameras.includes(config.activeCamera)) {
    return `The scene has no camera "${config.activeCamera}" (it has: ${cameras.join(', ')}). Nothing was rendered; submit again with one of these.`;
  }
  return null;
}

/** The settings a render of this record starts from: `chosen`, else the recorded ones, else the default. */
export function renderConfigFor(record: Pick<SubmissionRecord, 'renderConfig'>, chosen?: RenderConfig): RenderConfig {
  return chosen ?? recordedRenderConfig(record) ?? DEFAULT_RENDER_CONFIG;
}

/** What review shows for a validated job: its analysis and the settings to render with, checked. */
export function proposalFor(job: Job, renderConfig: RenderConfig): RenderProposal {
  const analysis = job.analysis ?? null;
  return { job, analysis, renderConfig, problem: renderConfigProblem(analysis, renderConfig) };
}
