import { describe, expect, it } from 'vitest';
import { submissionRecordAt } from '../../fixtures/submission-record';
import { AbortError, AuthError, InvalidStateError, NetworkError, NotFoundError, PreflightError, RateLimitedError, RenderRefusedError, ServerError, TransferError } from '../../../src/core/errors';
import { SUBMISSION_STEPS } from '../../../src/core/journal/submission-record';
import { isFinalFailure } from '../../../src/core/lifecycle/final-failure';


describe('isFinalFailure (the one policy the app and the CLI share)', () => {
  it('ends on settings the scene cannot do and on a file that fails its checks, at any step', () => {
    for (const step of SUBMISSION_STEPS) {
      expect(isFinalFailure(submissionRecordAt(step), new RenderRefusedError('no camera'))).toBe(true);
      expect(isFinalFailure(submissionRecordAt(step), new PreflightError('not-found', 'gone'))).toBe(true);
    }
  });

  it('ends when the server no longer knows the job, but not before there is one', () => {
    expect(isFinalFailure(submissionRecordAt('render-requested'), new NotFoundError('no such job', { status: 404 }))).toBe(true);
    expect(isFinalFailure(submissionRecordAt('uploaded'), new NotFoundError('no route', { status: 404 }))).toBe(false);
  });

  it('ends when the storage refuses the upload, not when it times out, rate limits or the URL expired', () => {
    for (const status of [400, 403, 404, 411, 413, 415]) expect(isFinalFailure(submissionRecordAt('upload-target'), new TransferError('refused', { status }))).toBe(true);
    for (const status of [408, 429, 500, 503]) expect(isFinalFailure(submissionRecordAt('upload-target'), new TransferError('busy', { status }))).toBe(false);
    expect(isFinalFailure(submissionRecordAt('upload-target'), new TransferError('expired', { code: 'upload-url-expired' }))).toBe(false);
    expect(isFinalFailure(submissionRecordAt('completed'), new TransferError('download refused', { status: 403 }))).toBe(false);
  });

  it('ends when validation or the render is refused, not when the job is merely busy elsewhere', () => {
    expect(isFinalFailure(submissionRecordAt('validate-requested'), new InvalidStateError('bad body', { status: 400 }))).toBe(true);
    expect(isFinalFailure(submissionRecordAt('validate-requested'), new InvalidStateError('conflict', { status: 409 }))).toBe(false);
    expect(isFinalFailure(submissionRecordAt('render-requested'), new InvalidStateError('refused', { status: 400 }))).toBe(true);
    expect(isFinalFailure(submissionRecordAt('job-created'), new InvalidStateError('refused', { status: 400 }))).toBe(false);
  });

  it('leaves everything that may pass resumable: network, server errors, rate limits, keys, aborts', () => {
    const passing = [
      new NetworkError('reset', { code: 'ECONNRESET', maybeApplied: true }),
      new ServerError('boom', { status: 500 }),
      new RateLimitedError('slow down'),
      new AuthError('key rejected', { status: 401 }),
      new AbortError(),
      new Error('unexpected'),
    ];
    for (const step of SUBMISSION_STEPS) for (const error of passing) expect([step, error.message, isFinalFailure(submissionRecordAt(step), error)]).toEqual([step, error.message, false]);
  });
});
