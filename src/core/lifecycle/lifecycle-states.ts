import { isFinished, reached, type SubmissionRecord, type SubmissionStep } from '../journal';
import { createJobStep, recoverJobStep } from './steps/create-job-step';
import { downloadStep } from './steps/download-step';
import { packStep } from './steps/pack-step';
import { checkBlenderThenTrace } from './steps/blender-check';
import { awaitRenderStep, requestRenderStep } from './steps/render-step';
import type { StepFunction } from './step-context';
import { scenesToChooseFrom } from './scene-choice';
import { uploadStep } from './steps/upload-step';
import { awaitValidationStep, requestValidationStep } from './steps/validation-step';

/** Where a submission stands, in words both the app and the CLI show (each in its own way). */
export const LIFECYCLE_PHASES = ['packing', 'uploading', 'choosing-scene', 'creating', 'validating', 'review', 'rendering', 'downloading', 'done'] as const;
export type LifecyclePhase = (typeof LIFECYCLE_PHASES)[number];

/** One state of the lifecycle: what a person is told, and the work that leaves it (null: last state). */
export interface LifecycleState {
  phase: LifecyclePhase;
  run: StepFunction | null;
  /**
   * Whether the state waits for a person's decision before its work may start (a zip's scene to
   * choose): `advance` stops there, and goes on once the decision is recorded.
   */
  waits?: (record: SubmissionRecord) => boolean;
}

/**
 * The submission lifecycle: each journal step is a state, and its step function does the work that
 * takes the record to the next state, saving that state before the work after it begins. A new
 * state is a new step in SUBMISSION_STEPS, a row here and its step function.
 *
 * A zip that holds several scenes is uploaded while the person chooses one, and waits after its
 * upload until the choice is recorded (nothing is created on the server before that).
 */
export const LIFECYCLE_STATES: { readonly [S in SubmissionStep]: LifecycleState } = {
  preflighted: { phase: 'packing', run: checkBlenderThenTrace },
  traced: { phase: 'packing', run: packStep },
  packing: { phase: 'packing', run: packStep },
  packed: { phase: 'uploading', run: uploadStep },
  'upload-target': { phase: 'uploading', run: uploadStep },
  uploaded: { phase: 'creating', run: createJobStep, waits: (record) => scenesToChooseFrom(record) !== null },
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

/** Whether an unfinished record waits for a person's decision before it can go on (see LifecycleState.waits). */
export function awaitsDecision(record: SubmissionRecord): boolean {
  return !isFinished(record) && (LIFECYCLE_STATES[record.step].waits?.(record) ?? false);
}

/** The phase of a record that has not ended (a finished one is `done`). */
export function lifecyclePhase(record: SubmissionRecord): LifecyclePhase {
  if (isFinished(record)) return 'done';
  return awaitsDecision(record) ? 'choosing-scene' : LIFECYCLE_STATES[record.step].phase;
}
