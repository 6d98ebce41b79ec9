import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FrameStripView, FrameView } from '../../src/shared/contract';
import { FrameStrip } from '../../src/renderer/components/frames/frame-strip';

const frame = (n: number, state: FrameView['state']): FrameView =>
  state === 'done' ? { frame: n, state, fileName: `shot_000${n}.png`, onDisk: false, viewable: true, hasPreview: true } : { frame: n, state, fileName: null, onDisk: false, viewable: false, hasPreview: false };

function strip(states: FrameView['state'][], status: FrameStripView['status'], rendered: number): string {
  const frames: FrameStripView = { jobId: 'job-1', status, frames: states.map((s, i) => frame(i + 1, s)), moreFrames: 0, fps: 24, formatName: 'PNG', hasPreview: false };
  return renderToStaticMarkup(createElement(FrameStrip, { frames, fileName: 'shot.blend', rendered, active: status === 'rendering' }));
}

const countLine = (html: string) => /<p class="muted frames-count">(.*?)<\/p>/.exec(html)?.[1];

describe('the frame grid', () => {
  it('shows the frames written so far as pictures to open while the job renders, the rest pending, and says more follow', () => {
    const html = strip(['done', 'done', 'pending', 'pending'], 'rendering', 2);
    expect(countLine(html)).toBe('2 of 4 frames to view, more as they render.');
    expect(html).toContain('aria-label="Frame 1, rendered. Open it large"');
    expect(html).toContain('aria-label="Frame 2, rendered. Open it large"');
    expect(html).toContain('aria-label="Frame 3, not available yet"');
  });

  it('never points at a picture elsewhere when it has none to show', () => {
    expect(countLine(strip(['pending', 'pending'], 'rendering', 0))).toBe('No frame is rendered yet. Each frame shows here as soon as the farm offers it.');
    expect(countLine(strip(['pending', 'pending'], 'rendering', 1))).toBe('1 of 2 rendered. Each frame shows here as soon as the farm offers it.');
    for (const html of [strip(['pending'], 'rendering', 0), strip(['pending'], 'rendering', 1)]) expect(html).not.toMatch(/above/);
  });

  it('counts what there is to view once the job has ended, and what is missing', () => {
    expect(countLine(strip(['done', 'done'], 'completed', 2))).toBe('2 of 2 frames to view.');
    expect(countLine(strip(['done', 'missing'], 'failed', 1))).toBe('1 of 2 frames to view, 1 missing.');
  });
});

describe('the viewer bar while the job renders', () => {
  it('counts the frames it plays as those written so far', async () => {
    const { ViewerBar } = await import('../../src/renderer/components/frames/viewer-bar');
    const bar = (rendering: boolean) =>
      renderToStaticMarkup(createElement(ViewerBar, { frame: 2, position: 2, count: 3, rendering, fps: 24, playing: false, actual: false, go: () => undefined, setPlaying: () => undefined, setActual: () => undefined, close: () => undefined }));
    expect(bar(true).replace(/<!-- -->/g, '')).toContain('(2 of 3 so far)');
    expect(bar(false).replace(/<!-- -->/g, '')).toContain('(2 of 3)');
  });
});
