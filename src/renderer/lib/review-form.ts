import type { FrameOrder, SceneAnalysis, RenderConfig } from '../../shared/api';
import { checkFrameRangeText } from './frame-range-check';
import { priorityError, tagsError, typedTags } from './farm';

/** The review sheet's fields as the artist edits them (text, so half-typed values are allowed). */
export interface ReviewForm {
  frames: string;
  samples: string;
  resolutionPercentage: string;
  camera: string;
  viewLayer: string;
  preset: RenderConfig['colorManagementPreset'];
  outputFormat: string;
  /** The Blender version to render with; empty or absent: the farm's choice. */
  blender?: string;
  /** A Renderdrop node's priority, 0-100, as typed; empty or absent: the node's default (50). */
  priority?: string;
  /** The worker tags the job needs on a Renderdrop node, as typed (`big-ram, gpu`); empty: any worker. */
  requires?: string;
  /** The order a Renderdrop node renders the frames in; absent: across the shot first (its default). */
  frameOrder?: FrameOrder;
}

/** The scene's own range as an expression, from the analysis. */
export function sceneRangeOf(analysis: SceneAnalysis | null): string | null {
  if (!analysis) return null;
  const base = analysis.frameStart === analysis.frameEnd ? `${analysis.frameStart}` : `${analysis.frameStart}-${analysis.frameEnd}`;
  return analysis.frameStep > 1 && analysis.frameStart !== analysis.frameEnd ? `${base}/${analysis.frameStep}` : base;
}

/** The form filled from the settings the host proposed. */
export function formFromConfig(config: RenderConfig): ReviewForm {
  return {
    frames: (config.frameRanges ?? []).join(','),
    samples: config.sampleCount !== undefined ? String(config.sampleCount) : '',
    resolutionPercentage: config.resolutionPercentage !== undefined ? String(config.resolutionPercentage) : '',
    camera: config.activeCamera ?? '',
    viewLayer: config.activeViewLayer ?? '',
    preset: config.colorManagementPreset,
    outputFormat: config.outputFormat ?? '',
    blender: config.blenderVersion ?? '',
    priority: config.priority !== undefined ? String(config.priority) : '',
    requires: (config.requires ?? []).join(', '),
    frameOrder: config.frameOrder ?? 'spread',
  };
}

/** Why a field is wrong, per field; empty when the form can be sent. */
export function reviewErrors(form: ReviewForm, sceneRange: string | null): Partial<Record<keyof ReviewForm, string>> {
  const errors: Partial<Record<keyof ReviewForm, string>> = {};
  const frames = checkFrameRangeText(form.frames, sceneRange);
  if (!frames.ok) errors.frames = frames.message;
  if (form.samples.trim() !== '' && !isIntIn(form.samples, 1, 1_000_000)) errors.samples = 'Samples are a whole number from 1 to 1,000,000.';
  if (form.resolutionPercentage.trim() !== '' && !isIntIn(form.resolutionPercentage, 1, 1000)) errors.resolutionPercentage = 'Resolution is a whole percentage from 1 to 1000.';
  const priority = priorityError(form.priority ?? '');
  if (priority !== null) errors.priority = priority;
  const tags = tagsError(form.requires ?? '');
  if (tags !== null) errors.requires = tags;
  return errors;
}

/** The render configuration to send: `base` with the form's fields applied (empty fields left to the scene). */
export function configFromForm(form: ReviewForm, base: RenderConfig): RenderConfig {
  const config: RenderConfig = { ...base, colorManagementPreset: form.preset };
  const frames = form.frames.trim();
  if (frames === '') delete config.frameRanges;
  else config.frameRanges = [frames.replace(/\s+/g, '')];
  setOrDrop(config, 'sampleCount', form.samples.trim() === '' ? undefined : Number(form.samples));
  setOrDrop(config, 'resolutionPercentage', form.resolutionPercentage.trim() === '' ? undefined : Number(form.resolutionPercentage));
  setOrDrop(config, 'activeCamera', form.camera || undefined);
  setOrDrop(config, 'activeViewLayer', form.viewLayer || undefined);
  setOrDrop(config, 'outputFormat', (form.outputFormat || undefined) as RenderConfig['outputFormat']);
  setOrDrop(config, 'blenderVersion', form.blender || undefined);
  setOrDrop(config, 'priority', (form.priority ?? '').trim() === '' ? undefined : Number(form.priority));
  const requires = typedTags(form.requires ?? '');
  setOrDrop(config, 'requires', requires.length > 0 ? requires : undefined);
  setOrDrop(config, 'frameOrder', form.frameOrder === 'sequential' ? 'sequential' : undefined);
  return config;
}

function setOrDrop<K extends keyof RenderConfig>(config: RenderConfig, key: K, value: RenderConfig[K] | undefined) {
  if (value === undefined) delete config[key];
  else config[key] = value;
}

function isIntIn(text: string, min: number, max: number): boolean {
  if (!/^\s*\d+\s*$/.test(text)) return false;
  const n = Number(text);
  return n >= min && n <= max;
}
