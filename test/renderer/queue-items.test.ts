import { describe, expect, it } from 'vitest';
import type { SubmissionView } from '../../src/shared/contract/submission-views';
import { queueItems } from '../../src/renderer/lib/queue-items';
import type { DroppedFile } from '../../src/renderer/stores/submissions-store';
import { jobSummary } from '../fixtures/job-summary';

const submission = (id: string, phase: SubmissionView['phase'], jobId: string | null, createdAt = '2026-01-01T00:00:00Z'): SubmissionView => ({
  id,
  fileName: `${id}.blend`,
  size: 10,
  phase,
  jobId,
  createdAt,
  error: null,
  canRetry: false,
  scenes: null,
  packing: null,
});

const dropped = (key: string, status: DroppedFile['status'], submissionId: string | null = null): DroppedFile => ({ key, name: `${key}.blend`, size: 1, status, sent: 0, error: null, submissionId });

describe('queueItems (the drop tray and the queue as one list)', () => {
  it('puts files being handed over and submissions on their way first, then the jobs', () => {
    const items = queueItems(
      [dropped('d1', 'sending')],
      [submission('s2', 'uploading', null, '2026-01-02T00:00:00Z'), submission('s1', 'packing', null, '2026-01-01T00:00:00Z')],
      [jobSummary({ id: 'j1' })],
    );
    expect(items.map((i) => i.key)).toEqual(['dropped:d1', 'submission:s1', 'submission:s2', 'job:j1']);
  });

  it('shows a submission once: on its job row when the job is in the queue, on its own row while it is not', () => {
    const review = submission('s1', 'review', 'j1');
    const items = queueItems([], [review, submission('s2', 'validating', 'j-not-listed-yet')], [jobSummary({ id: 'j1', status: 'validated' })]);
    expect(items.map((i) => i.key)).toEqual(['submission:s2', 'job:j1']);
    expect(items[1]).toMatchObject({ kind: 'job', submission: review });
  });

  it('keeps a stopped submission on its own row, and drops a dropped file once its submission is known', () => {
    const items = queueItems([dropped('d1', 'accepted', 's1'), dropped('d2', 'rejected')], [submission('s1', 'failed', 'j1')], [jobSummary({ id: 'j1', status: 'completed' })]);
    expect(items.map((i) => i.key)).toEqual(['dropped:d2', 'submission:s1', 'job:j1']);
  });

  it('shows a submission whose job failed on the failed job\'s row only, not as a second "Stopped" row', () => {
    const stopped = submission('s1', 'failed', 'j1');
    const items = queueItems([], [stopped], [jobSummary({ id: 'j1', status: 'failed', failure: 'Blender could not read shot.blend.' })]);
    expect(items.map((i) => i.key)).toEqual(['job:j1']);
    expect(items[0]).toMatchObject({ kind: 'job', submission: stopped });
  });

  it('leaves out submissions that are done, canceled or discarded', () => {
    const items = queueItems([], [submission('a', 'done', 'j'), submission('b', 'canceled', null), submission('c', 'discarded', null)], []);
    expect(items).toEqual([]);
  });
});
