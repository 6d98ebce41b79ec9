import { z } from 'zod';
import { analysisForArtist, type PackSummary } from '../../core/packing';

const warningsSchema = z.looseObject({ warnings: z.array(z.looseObject({ code: z.string() })) });

const WORDS: Record<string, string> = {
  'missing-dependency': 'files missing',
  'newer-blender': 'saved with a newer Blender',
  'denoiser-unavailable': 'rendered without the denoiser',
  'engine-unavailable': 'render engine not available',
  'no-active-camera': 'no active camera',
  'no-view-layer-for-render': 'no view layer to render',
};

/**
 * What a job's analysis warned about, in a few words each, once per kind (another server's codes
 * read as "a warning from the farm"). With the pack summary of the submission that sent it, files that
 * travelled in the bundle are not counted missing. Empty when the analysis has no warnings or cannot be read.
 */
export function warningWordsOf(analysis: unknown, packing: PackSummary | null = null): string[] {
  const parsed = warningsSchema.safeParse(analysisForArtist(analysis, packing, 'disk'));
  if (!parsed.success) return [];
  return [...new Set(parsed.data.warnings.map((w) => WORDS[w.code] ?? 'a warning from the farm'))];
}
