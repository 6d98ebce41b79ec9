import { parseTags, renderConfigSchema, type FrameOrder, type RenderConfig } from '../../shared/api';
import { UsageError } from '../cli-errors';
import type { ColorPreset, OutputFormat } from '../options';

/** The render overrides `submit` takes on the command line. */
export interface RenderOverrides {
  frames?: string;
  samples?: number;
  percentage?: number;
  camera?: string;
  viewLayer?: string;
  preset: ColorPreset;
  format?: OutputFormat;
  /** The Blender version to render with (a series or an exact version); absent: the farm's choice. */
  blenderVersion?: string;
  /** A Renderdrop node's job priority, 0-100. */
  priority?: number;
  /** The worker tags the job needs, as typed (`big-ram,gpu`). */
  requires?: string;
  /** The order a Renderdrop node renders the frames in; spread (its default) is not sent. */
  order?: FrameOrder;
}

/** The `requestedRenderConfig` for the overrides; anything not given keeps the scene's own value. */
export function renderConfigFrom(overrides: RenderOverrides): RenderConfig {
  const config: RenderConfig = { colorManagementPreset: overrides.preset };
  if (overrides.frames !== undefined) config.frameRanges = [overrides.frames];
  if (overrides.samples !== undefined) config.sampleCount = overrides.samples;
  if (overrides.percentage !== undefined) config.resolutionPercentage = overrides.percentage;
  if (overrides.camera !== undefined) config.activeCamera = overrides.camera;
  if (overrides.viewLayer !== undefined) config.activeViewLayer = overrides.viewLayer;
  if (overrides.format !== undefined) config.outputFormat = overrides.format;
  if (overrides.blenderVersion !== undefined) config.blenderVersion = overrides.blenderVersion;
  if (overrides.priority !== undefined) config.priority = overrides.priority;
  if (overrides.order === 'sequential') config.frameOrder = 'sequential';
  if (overrides.requires !== undefined) {
    const tags = parseTags(overrides.requires);
    if (!tags.ok) throw new UsageError(`--requires: ${tags.error}`);
    if (tags.tags.length > 0) config.requires = tags.tags;
  }
  const checked = renderConfigSchema.safeParse(config);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UsageError(`The render options are not valid (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown problem'}).`);
  }
  return checked.data;
}
