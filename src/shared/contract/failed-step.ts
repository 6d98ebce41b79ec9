import type { FailedStep } from './job-views';

/** The heading of a failure, naming its step: "Validation failed". Null (no step known) reads "Failed". */
export function failedStepTitle(step: FailedStep | null): string {
  if (step === null) return 'Failed';
  return step === 'upload' ? 'Upload failed' : step === 'validation' ? 'Validation failed' : 'Render failed';
}
