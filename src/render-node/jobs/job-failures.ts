/** The reasons the job runner fails a job with when a step could not say one itself. */
import type { FailedReason } from '../../shared/api';
import { diskFullReason, isDiskFullError } from '../disk';

/** Why a job whose validation was under way when the node died is not validated again. */
export const VALIDATION_INTERRUPTED: FailedReason = {
  name: 'ValidationInterrupted',
  type: 'scene',
  message: 'Validation stopped when the render node restarted; the scene may be too large or too damaged for this node to open. Submit it again to retry.',
};

/** Why a validation or render cannot run on a node that found no Blender. */
export const BLENDER_NOT_FOUND: FailedReason = {
  name: 'BlenderNotFound',
  type: 'blender',
  message: 'This node has no Blender. Install Blender, or start the node with --blender <path> or BLENDER_PATH.',
};

/**
 * The failure of a job whose work threw unexpectedly: the error's code (for example `EACCES`) tells
 * what happened; its message, which may name the node's own folders, stays in the log.
 */
export function internalFailure(err: unknown): FailedReason {
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? ` (${err.code})` : '';
  return { name: 'InternalError', type: 'internal', message: `The node hit an internal error${code}; its log has the details. Try again, or tell whoever runs the node.` };
}

/** The failure of a step that threw: a full disk says which step could not write, anything else is internal. */
export function crashFailure(kind: 'validate' | 'render' | 'finalize', err: unknown): FailedReason {
  if (!isDiskFullError(err)) return internalFailure(err);
  return diskFullReason(`the ${kind === 'finalize' ? 'packaging' : kind === 'render' ? 'render' : 'validation'} could not write what it needed`);
}
