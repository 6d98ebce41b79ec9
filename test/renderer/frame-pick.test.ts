import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FrameStripView } from '../../src/shared/contract';
import { FrameStrip } from '../../src/renderer/components/frames/frame-strip';
import { nextPick, NO_PICK } from '../../src/renderer/components/frames/frame-pick';

const listed = [1, 2, 3, 5, 8];
const picked = (p: { frames: ReadonlySet<number> }) => [...p.frames].sort((a, b) => a - b);

describe('picking frames in the frame strip', () => {
  it('picks and unpicks a frame per click, and a Shift-click adds every listed frame from the last one clicked', () => {
    let pick = nextPick(NO_PICK, listed, 2, { range: false });
    expect(pick.on).toBe(true);
    expect(picked(pick)).toEqual([2]);
    pick = nextPick(pick, listed, 8, { range: true });
    expect(picked(pick)).toEqual([2, 3, 5, 8]);
    pick = nextPick(pick, listed, 3, { range: false });
    expect(picked(pick)).toEqual([2, 5, 8]);
    pick = nextPick(pick, listed, 1, { range: true });
    expect(picked(pick)).toEqual([1, 2, 3, 5, 8]);
  });

  it('takes a Shift-click with nothing clicked before as a click', () => {
    expect(picked(nextPick(NO_PICK, listed, 5, { range: true }))).toEqual([5]);
  });

  it('offers picking only for a job that ended', () => {
    const frames: FrameStripView = { jobId: 'job-1', status: 'completed', frames: [{ frame: 1, state: 'done', fileName: 'a_0001.png', onDisk: false, viewable: true, hasPreview: true }], moreFrames: 0, fps: 24, formatName: 'PNG', hasPreview: false };
    const html = (withAction: boolean) => renderToStaticMarkup(createElement(FrameStrip, { frames, fileName: 'a.blend', rendered: 1, active: false, ...(withAction ? { onRenderAgain: async () => true } : {}) }));
    expect(html(true)).toContain('Pick frames to render again');
    expect(html(false)).not.toContain('Pick frames');
  });
});
