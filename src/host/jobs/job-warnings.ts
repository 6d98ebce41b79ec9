import { analysisForArtist, type PackSummary } from '../../core/packing';
import { blenderErrorLineOf, isNote, jobWarningsOf, type JobStatus } from '../../shared/api';

const WORDS: Record<string, string> = {
  'missing-dependency': 'files missing',
  'newer-blender': 'saved with a newer Blender',
  'denoiser-unavailable': 'rendered without the denoiser',
  'engine-unavailable': 'render engine not available',
  'no-active-camera': 'no active camera',
  'no-view-layer-for-render': 'no view layer to render',
  'video-frames-only': 'frames only, no video',
  'farm-change': 'rendered differently on this farm',
  'farm-limit': "over this farm's limits",
  'python-driver': 'scene Python not run',
  'python-module': 'scene Python not run',
  'blender-errors': 'Blender reported errors',
  'no-render-workers': 'no render worker connected',
  'different-blender': 'rendered with another Blender version',
};

/**
 * What a job's warnings (the one list, jobWarningsOf, for the job's status) say, in a few words each,
 * once per kind (another server's codes read as "a warning from the farm"); notes are left out. With
 * the pack summary of the submission that sent it, files that travelled in the bundle are not counted
 * missing. Empty when the analysis has no warnings or cannot be read.
 */
export function warningWordsOf(analysis: unknown, packing: PackSummary | null = null, status: JobStatus = 'validated', waiting?: unknown): string[] {
  const warnings = jobWarningsOf({ status, analysis: analysisForArtist(analysis, packing, 'disk'), waiting });
  return [...new Set(warnings.filter((w) => !isNote(w)).map((w) => WORDS[w.code] ?? 'a warning from the farm'))];
}

/** The first telling line of the Blender errors a job's render printed, when its warnings hold them. */
export function blenderErrorLineIn(analysis: unknown, status: JobStatus): string | null {
  for (const warning of jobWarningsOf({ status, analysis })) {
    const line = blenderErrorLineOf(warning);
    if (line !== null) return line;
  }
  return null;
}
