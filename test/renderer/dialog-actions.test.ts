import { describe, expect, it } from 'vitest';
import { nextInCycle } from '../../src/renderer/lib/dialog-focus';
import { cancelQuestion } from '../../src/renderer/lib/job-actions';
import { confirmFirst, useConfirmStore } from '../../src/renderer/stores/confirm-store';
import { countOf } from '../../src/shared/text/plural';

describe('nextInCycle', () => {
  const items = ['first', 'middle', 'last'];
  it('goes round from the last to the first and back, and into the dialog from outside', () => {
    expect(nextInCycle(items, 'last', false)).toBe('first');
    expect(nextInCycle(items, 'first', true)).toBe('last');
    expect(nextInCycle(items, 'middle', false)).toBeNull();
    expect(nextInCycle(items, null, false)).toBe('first');
    expect(nextInCycle(items, 'outside', true)).toBe('last');
    expect(nextInCycle([], null, false)).toBeNull();
  });
});

describe('cancelQuestion', () => {
  it('says what is kept and what is lost while rendering', () => {
    const q = cancelQuestion({ fileName: 'shot.blend', completedFrames: 5, totalFrames: 12, status: 'rendering' });
    expect(q).toMatchObject({ title: 'Cancel the render of shot.blend?', confirm: 'Cancel render', keep: 'Keep rendering' });
    expect(q.message).toBe('The render of shot.blend stops: 5 frames done so far stay, the 7 frames left are not rendered, and the frame in progress is lost. This cannot be undone.');
    expect(cancelQuestion({ fileName: 'one.blend', completedFrames: 1, totalFrames: 2, status: 'rendering' }).message).toContain('1 frame done so far stay, the 1 frame left');
  });

  it('before rendering, says the scene will not be rendered', () => {
    expect(cancelQuestion({ fileName: 'shot.blend', completedFrames: 0, totalFrames: 0, status: 'validated' }).message).toBe('shot.blend will not be rendered. This cannot be undone.');
  });
});

describe('confirmFirst', () => {
  const request = { title: 't', message: 'm', confirm: 'Do', keep: 'Keep' };
  it('resolves with the answer, and a second question answers the first no', async () => {
    const first = confirmFirst(request);
    const second = confirmFirst(request);
    await expect(first).resolves.toBe(false);
    useConfirmStore.getState().answer(true);
    await expect(second).resolves.toBe(true);
    expect(useConfirmStore.getState().open).toBeNull();
  });
});

describe('countOf', () => {
  it('puts the noun in the right number', () => {
    expect([countOf(0, 'frame'), countOf(1, 'frame'), countOf(12, 'frame'), countOf(2, 'more scene')]).toEqual(['0 frames', '1 frame', '12 frames', '2 more scenes']);
  });
});

describe('the cancel question while the job renders on', () => {
  it('counts the frames the row shows now, not those done when it was asked', async () => {
    const { cancelJob } = await import('../../src/renderer/lib/job-actions');
    const { useQueueStore } = await import('../../src/renderer/stores/queue-store');
    const { jobSummary } = await import('../fixtures/job-summary');
    const asked = jobSummary({ id: 'live', fileName: 'shot.blend', status: 'rendering', completedFrames: 5, totalFrames: 12 });
    useQueueStore.getState().replace([asked], 'p');
    const answered = cancelJob(asked);
    expect(useConfirmStore.getState().open?.message).toContain('5 frames done so far');
    useQueueStore.getState().upsert([{ ...asked, completedFrames: 6 }]);
    expect(useConfirmStore.getState().open?.message).toContain('6 frames done so far stay, the 6 frames left');
    useConfirmStore.getState().answer(false);
    await answered;
    useQueueStore.getState().upsert([{ ...asked, completedFrames: 7 }]);
    expect(useConfirmStore.getState().open).toBeNull();
  });
});
