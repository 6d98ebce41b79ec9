import { basename, dirname, sep } from 'node:path';
import { type MissingFile, missingFiles, type PackSummary, type PrivateFile } from '../../core/packing';
import { countOf, formatBytes } from '../../shared/text';

/**
 * What travels with a scene and what the farm will not have, printed before anything is uploaded:
 * the bundle's files and size, then every missing file once by its path on this disk, with what uses
 * it and why it is missing, then what to do about them.
 */
export function formatPackingSummary(name: string, summary: PackSummary, project?: string): string[] {
  const lines: string[] = [];
  if (summary.bundled) lines.push(`${name}: ${countOf(summary.files, 'file')}, ${formatBytes(summary.bytes)} travel with the scene.`);
  const missing = missingFiles(summary, 'disk');
  if (missing.length > 0) {
    const count = missing.length === 1 ? '1 file it uses is' : `${missing.length} files it uses are`;
    lines.push(`${name}: ${count} missing; the farm renders without ${missing.length === 1 ? 'it' : 'them'}:`);
    lines.push(...formatMissingFiles(missing));
  }
  lines.push(...formatPrivateFiles(summary.privateFiles ?? [], `${name}: t`, project));
  return lines;
}

/**
 * The files held at the packing boundary, told apart from the rest and grouped by folder: those left
 * out (and how to send them), then those packed because `--allow-outside` allowed them. A folder that
 * was not read at all is one line ending in a separator. `lead` starts each heading (`T` alone, or
 * `shot.blend: t`); `project` names the project's folder.
 */
export function formatPrivateFiles(files: readonly PrivateFile[], lead = 'T', project?: string): string[] {
  const leftOut = files.filter((file) => !file.allowed);
  const allowed = files.filter((file) => file.allowed);
  const lines: string[] = [];
  const edge = project === undefined ? 'the project' : `the project, ${project}`;
  if (leftOut.length > 0) {
    lines.push(`${lead}hese files were held at the edge of ${edge}, and not packed:`, ...byFolder(leftOut));
    lines.push("  The farm renders without them. To send them, add --allow-outside <path> (the file, or a folder holding it); when the scene's files sit around its folder (a show's shared assets), give --project <the show's folder>.");
  }
  if (allowed.length > 0) lines.push(`${lead}hese files held at the edge of ${edge}${project === undefined ? '' : ','} were packed, as --allow-outside allows:`, ...byFolder(allowed));
  return lines;
}

/** Held files as lines grouped by their folder (a folder not read stands alone), each with what uses it and why. */
function byFolder(files: readonly PrivateFile[]): string[] {
  const about = (file: PrivateFile) => `(${file.kind} "${file.owner}": ${file.why})`;
  const groups = new Map<string, PrivateFile[]>();
  for (const file of files) {
    const folder = file.folder ? file.path : dirname(file.path);
    groups.set(folder, [...(groups.get(folder) ?? []), file]);
  }
  const lines: string[] = [];
  for (const [folder, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const whole = group.find((file) => file.folder);
    lines.push(`  ${folder.endsWith(sep) ? folder : `${folder}${sep}`}${whole ? ` ${about(whole)}` : ''}`);
    for (const file of group) if (!file.folder) lines.push(`    ${basename(file.path)} ${about(file)}`);
  }
  return lines;
}

/** Missing files as indented lines (path, what uses it, why), then each distinct piece of advice once. */
export function formatMissingFiles(missing: readonly MissingFile[]): string[] {
  const lines = missing.map((file) => `  ${file.path} (${[`${file.kind} "${file.owner}"`, ...(file.also ?? [])].join(', ')}: ${file.reason})`);
  const advice = [...new Set(missing.map((file) => file.advice))];
  return [...lines, ...advice.map((line) => `  ${line}`)];
}
