import { type MissingFile, missingFiles, type PackSummary, type PrivateFile } from '../../core/packing';
import { countOf, formatBytes } from '../../shared/text';

/**
 * What travels with a scene and what the farm will not have, printed before anything is uploaded:
 * the bundle's files and size, then every missing file once by its path on this disk, with what uses
 * it and why it is missing, then what to do about them.
 */
export function formatPackingSummary(name: string, summary: PackSummary): string[] {
  const lines: string[] = [];
  if (summary.bundled) lines.push(`${name}: ${countOf(summary.files, 'file')}, ${formatBytes(summary.bytes)} travel with the scene.`);
  const missing = missingFiles(summary, 'disk');
  if (missing.length > 0) {
    const count = missing.length === 1 ? '1 file it uses is' : `${missing.length} files it uses are`;
    lines.push(`${name}: ${count} missing; the farm renders without ${missing.length === 1 ? 'it' : 'them'}:`);
    lines.push(...formatMissingFiles(missing));
  }
  lines.push(...formatPrivateFiles(summary.privateFiles ?? [], `${name}: t`));
  return lines;
}

/**
 * Files outside the project that look private, told apart from the rest: those left out (and how to
 * send them), then those packed because `--allow-outside` allowed them. `lead` starts each heading
 * (`T` alone, or `shot.blend: t`).
 */
export function formatPrivateFiles(files: readonly PrivateFile[], lead = 'T'): string[] {
  const line = (file: PrivateFile) => `  ${file.path} (${file.kind} "${file.owner}": ${file.why})`;
  const leftOut = files.filter((file) => !file.allowed);
  const allowed = files.filter((file) => file.allowed);
  const lines: string[] = [];
  if (leftOut.length > 0) {
    lines.push(`${lead}hese files outside the project look private and were not packed:`, ...leftOut.map(line));
    lines.push('  The farm renders without them. To send them, add --allow-outside <path> (the file, or a folder holding it).');
  }
  if (allowed.length > 0) lines.push(`${lead}hese files outside the project look private and were packed, as --allow-outside allows:`, ...allowed.map(line));
  return lines;
}

/** Missing files as indented lines (path, what uses it, why), then each distinct piece of advice once. */
export function formatMissingFiles(missing: readonly MissingFile[]): string[] {
  const lines = missing.map((file) => `  ${file.path} (${[`${file.kind} "${file.owner}"`, ...(file.also ?? [])].join(', ')}: ${file.reason})`);
  const advice = [...new Set(missing.map((file) => file.advice))];
  return [...lines, ...advice.map((line) => `  ${line}`)];
}
