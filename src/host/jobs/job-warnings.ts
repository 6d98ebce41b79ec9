import { z } from 'zod';

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
 * read as "a warning from the farm"). Empty when the analysis has no warnings or cannot be read.
 */
export function warningWordsOf(analysis: unknown): string[] {
  const parsed = warningsSchema.safeParse(analysis);
  if (!parsed.success) return [];
  return [...new Set(parsed.data.warnings.map((w) => WORDS[w.code] ?? 'a warning from the farm'))];
}
