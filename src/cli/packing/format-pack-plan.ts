import { basename } from 'node:path';
import type { BundlePlan, PlannedBlend, PlannedDependency } from '../../blend/pack';
import { KIND_LABELS } from '../../blend/trace';
import { missingFiles, missingSentence, type PrivateFile, summarizePlan } from '../../core/packing';
import { countOf, formatBytes } from '../../shared/text';
import { formatMissingFiles, formatPrivateFiles } from './format-packing';
import { formatTable } from '../output';

const STATUS_WORDS: Record<PlannedDependency['status'], string> = {
  found: 'found',
  packed: 'packed',
  missing: 'missing',
  'other-system': 'missing',
  'not-a-file': 'not a file',
  unreadable: 'unreadable',
  empty: 'no path',
  skipped: 'left out',
  outside: 'outside',
};

function blendTitle(blend: PlannedBlend, index: number): string {
  const facts = [blend.version !== null ? `Blender ${Math.floor(blend.version / 100)}.${blend.version % 100}` : null, blend.compression && blend.compression !== 'none' ? `${blend.compression}-compressed` : null, formatBytes(blend.sourceSize)];
  const what = index === 0 ? 'Scene' : `Library (linked from ${basename(blend.linkedFrom ?? '')})`;
  return `${what} ${blend.path} (${facts.filter(Boolean).join(', ')}) -> ${blend.entry}`;
}

function where(dep: PlannedDependency, holderEntry: string): string {
  if (dep.status === 'packed') return `inside ${holderEntry}`;
  if (dep.leftOut) return '-';
  return dep.bundlePath ?? '-';
}

function statusWord(dep: PlannedDependency): string {
  return dep.leftOut ? 'held' : STATUS_WORDS[dep.status];
}

function size(dep: PlannedDependency): string {
  if (dep.status !== 'found') return '-';
  const files = dep.files.length > 1 ? ` in ${dep.files.length} files` : '';
  return `${formatBytes(dep.size)}${files}`;
}

/**
 * The plan of a bundle as lines for a terminal: each .blend with its paths (status, kind, path as
 * stored, size, place in the bundle), then every missing file once by its path on this disk (frames
 * missing from a sequence too) with why and what to do, then the files held at the edge of the
 * project, by folder (left out, or allowed), then notes and the bundle's size.
 */
export function formatPackPlan(plan: BundlePlan, privateFiles: readonly PrivateFile[] = [], project?: string): string[] {
  const lines: string[] = [];
  plan.blends.forEach((blend, index) => {
    lines.push(blendTitle(blend, index));
    if (blend.error) lines.push(`  ${blend.error} It goes into the bundle unchanged.`);
    const deps = plan.dependencies.filter((d) => d.holder === blend.path && d.status !== 'empty');
    if (deps.length === 0) {
      if (!blend.error) lines.push('  (no external files)');
      return;
    }
    const rows = [['STATUS', 'KIND', 'PATH IN THE SCENE', 'SIZE', 'IN THE BUNDLE'], ...deps.map((d) => [statusWord(d), KIND_LABELS[d.kind], d.stored, size(d), where(d, blend.entry)])];
    lines.push(...formatTable(rows, ['left', 'left', 'left', 'right', 'left']).map((line) => `  ${line}`));
  });
  const missing = missingFiles(summarizePlan(plan), 'disk');
  if (missing.length > 0) {
    lines.push('', `Missing (${missing.length}): the farm will render without ${missing.length === 1 ? 'this file' : 'these files'}.`);
    lines.push(...formatMissingFiles(missing));
  }
  if (privateFiles.length > 0) lines.push('', ...formatPrivateFiles(privateFiles, 'T', project));
  const other = plan.dependencies.filter((d) => !plan.missing.includes(d) && d.problem !== null && d.status !== 'outside');
  if (plan.notes.length > 0 || other.length > 0) {
    lines.push('', 'Notes:');
    for (const note of [...plan.notes, ...other.map((d) => d.problem!)]) lines.push(`  ${note}`);
  }
  lines.push('', bundleSummary(plan));
  return lines;
}

/** Every file the farm will not have, once each, as one sentence each (for `pack --json`). */
export function packWarnings(plan: BundlePlan): string[] {
  return missingFiles(summarizePlan(plan), 'disk').map(missingSentence);
}

/** One line: how many files and bytes travel, or that the scene needs nothing beside it. */
export function bundleSummary(plan: BundlePlan): string {
  if (plan.entries.length <= 1) return `Nothing to pack: ${plan.sceneEntry} needs no other file.`;
  return `Bundle: ${countOf(plan.entries.length, 'file')}, ${formatBytes(plan.totalBytes)}.`;
}
