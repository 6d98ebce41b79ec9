import { InvalidStateError, NotFoundError, PackingError, PreflightError, RenderRefusedError, TransferError } from '../errors';
import { reached, type SubmissionRecord } from '../journal';

/**
 * Whether running the submission again cannot fix this failure, so it ends instead of being left to
 * resume or retry (the app and the CLI share this policy): settings the scene cannot do, a file that
 * fails its checks, a scene whose files changed after packing began or that cannot be packed, a job the server no longer knows, the storage refusing the upload itself (a 4xx
 * other than a timeout or a rate limit; an expired URL is renewed by the upload and carries no
 * status), the server refusing validation of a job still `created` (a 400: the same request gets the
 * same answer), and the server refusing the render request.
 */
export function isFinalFailure(record: SubmissionRecord, error: unknown): boolean {
  if (error instanceof RenderRefusedError || error instanceof PreflightError || error instanceof PackingError) return true;
  if (error instanceof NotFoundError && record.jobId !== null) return true;
  if (error instanceof TransferError && !reached(record, 'uploaded')) return isRefusedUpload(error.status);
  if (error instanceof InvalidStateError && error.status === 400 && record.step === 'validate-requested') return true;
  return error instanceof InvalidStateError && record.step === 'render-requested';
}

function isRefusedUpload(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
