/**
 * The value lists of the Render Job External API that command-line parsing needs, in a module without
 * zod, so a command can check its options without loading the schemas (src/shared/api builds its
 * enums from these).
 */

/** Every status a job can have, in the order the spec lists them. */
export const JOB_STATUSES = [
  'created',
  'validating',
  'validated',
  'debugging',
  'rendering',
  'finalizing',
  'completed',
  'failed',
  'canceled',
  'booting',
  'suspended',
] as const;

/** A job's status. */
export type JobStatusValue = (typeof JOB_STATUSES)[number];

/** Colour management presets of a render configuration. */
export const COLOR_MANAGEMENT_PRESETS = ['default', 'aces'] as const;

/** Image formats a render can write. */
export const OUTPUT_FORMATS = ['PNG', 'JPEG', 'OPEN_EXR', 'OPEN_EXR_MULTILAYER', 'TIFF', 'BMP', 'TARGA', 'WEBP'] as const;
