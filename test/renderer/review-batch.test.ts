import { describe, expect, it } from 'vitest';
import type { SubmissionView } from '../../src/shared/contract/submission-views';
import { formForScene, isPending, nextPending, reviewEntries, type ReviewSource } from '../../src/renderer/lib/review-batch';
import type { ReviewForm } from '../../src/renderer/lib/review-form';

function submission(id: string, phase: SubmissionView['phase']): SubmissionView {
  return { id, fileName: `${id}.blend`, size: 1, phase, jobId: null, createdAt: '2026-01-01T00:00:00Z', error: null, canRetry: false, scenes: null, packing: null };
}

const source: ReviewSource = {
  reviewId: 's-b',
  batch: ['k1', 'k2', 'k3', 'k4'],
  dropped: [
    { key: 'k1', name: 'a.blend', status: 'accepted', error: null, submissionId: 's-a' },
    { key: 'k2', name: 'b.blend', status: 'accepted', error: null, submissionId: 's-b' },
    { key: 'k3', name: 'notes.blend', status: 'rejected', error: 'not a Blender file', submissionId: null },
    { key: 'k4', name: 'c.blend', status: 'sending', error: null, submissionId: null },
  ],
  byId: { 's-a': submission('s-a', 'rendering'), 's-b': submission('s-b', 'review') },
};

describe('reviewEntries', () => {
  it('lists every file of the drop in order, refused ones included', () => {
    const entries = reviewEntries(source);
    expect(entries.map((e) => e.name)).toEqual(['s-a.blend', 's-b.blend', 'notes.blend', 'c.blend']);
    expect(entries[2]!.refused).toBe('not a Blender file');
    expect(entries.map(isPending)).toEqual([false, true, false, true]);
  });

  it('is the reviewed submission alone when it was not dropped with others', () => {
    const entries = reviewEntries({ ...source, reviewId: 's-x', byId: { ...source.byId, 's-x': submission('s-x', 'review') } });
    expect(entries.map((e) => e.name)).toEqual(['s-x.blend']);
  });
});

describe('nextPending', () => {
  it('goes forward to the next scene that still waits, then round from the start, else null', () => {
    const entries = reviewEntries(source);
    expect(nextPending(entries, 1)).toBe(3);
    expect(nextPending(entries, 3)).toBe(1);
    expect(nextPending(entries.slice(0, 2), 1)).toBeNull();
  });
});

describe('formForScene', () => {
  const form: ReviewForm = { frames: '1-10', samples: '16', resolutionPercentage: '50', camera: 'CamA', viewLayer: 'Fg', preset: 'aces', outputFormat: 'PNG' };

  it('keeps frames, samples, resolution, colour and format, and a camera and view layer the scene has', () => {
    expect(formForScene(form, { cameras: ['CamA'], viewLayers: [{ name: 'Fg' } as never] })).toEqual(form);
  });

  it("falls back to the scene's own camera and view layer when it has not got those", () => {
    expect(formForScene(form, { cameras: ['Other'], viewLayers: [] })).toEqual({ ...form, camera: '', viewLayer: '' });
    expect(formForScene(form, null)).toEqual({ ...form, camera: '', viewLayer: '' });
    const picked = { ...form, blender: '4.3.2' };
    const offered = { farmChoice: '3.4.1', versions: ['3.4.1', '4.3.2'] };
    expect(formForScene(picked, { cameras: ['CamA'], viewLayers: [{ name: 'Fg' } as never] }, offered)).toEqual(picked);
    expect(formForScene(picked, { cameras: ['CamA'], viewLayers: [{ name: 'Fg' } as never] }, { farmChoice: '5.2.2', versions: ['5.2.2', '5.3.0'] })).toEqual({ ...picked, blender: '' });
    expect(formForScene(picked, { cameras: ['CamA'], viewLayers: [{ name: 'Fg' } as never] })).toEqual({ ...picked, blender: '' });
  });
});
