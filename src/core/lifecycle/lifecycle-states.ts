import { isFinished, reached, type SubmissionRecord, type SubmissionStep } from '../journal/submission-record';
import { createJobStep, recoverJobStep } from './create-job-step';
import { downloadStep } from './download-step';
import { packStep, traceStep } from './pack-step';
import { awaitRenderStep, requestRenderStep } from './render-step';
import type { StepFunction } from './step-context';
import { uploadStep } from './upload-step';
import { awaitValidationStep, requestValidationStep } from './validation-step';

/** Where a submission stands, in words both the app and the CLI show (each in its own way). */
export const LIFECYCLE_PHASES = ['packing', 'uploading', 'creating', 'validating', 'review', 'rendering', 'downloading', 'done'] as const;
export type LifecyclePhase = (typeof LIFECYCLE_PHASES)[number];

/** One state of the lifecycle: what a person is told, and the work that leaves it (null: last state). */
export interface LifecycleState {
  phase: LifecyclePhase;
  run: StepFunction | null;
}

/**
 * The submission lifecycle: each journal step is a state, and its step function does the work that
 * takes the record to the next state, saving that state before the work after it begins. A new
 * state is a new step in SUBMISSION_STEPS, a row here and its step function.
 */
export const LIFECYCLE_STATES: { readonly [S in SubmissionStep]: LifecycleState } = {
  preflighted: { phase: 'packing', run: traceStep },
  traced: { phase: 'packing', run: packStep },
  packing: { phase: 'packing', run: packStep },
  packed: { phase: 'uploading', run: uploadStep },
  'upload-target': { phase: 'uploading', run: uploadStep },
  uploaded: { phase: 'creating', run: createJobStep },
  'creating-job': { phase: 'creating', run: recoverJobStep },
  'job-created': { phase: 'validating', run: requestValidationStep },
  'validate-requested': { phase: 'validating', run: awaitValidationStep },
  validated: { phase: 'review', run: requestRenderStep },
  'render-requested': { phase: 'rendering', run: awaitRenderStep },
  completed: { phase: 'downloading', run: downloadStep },
  downloaded: { phase: 'done', run: null },
};

/**
 * Where `advance` stops: `traced` (what travels and what is missing is known, nothing is packed or
 * sent yet), `validated` (validation over, waiting for the go-ahead to render), `render-requested`
 * (the server has the render), `done` (nothing more to do).
 */
export type LifecycleStop = 'traced' | 'validated' | 'render-requested' | 'done';

/** Whether a record has reached a stop (or finished, which passes every stop). */
export function stopReached(record: SubmissionRecord, stop: LifecycleStop): boolean {
  if (isFinished(record)) return true;
  return stop !== 'done' && reached(record, stop);
}

/** The phase of a record that has not ended (a finished one is `done`). */
export function lifecyclePhase(record: SubmissionRecord): LifecyclePhase {
  return isFinished(record) ? 'done' : LIFECYCLE_STATES[record.step].phase;
}
