import { describe, expect, it } from 'vitest';
import { renderedByText } from '../../../src/shared/render/rendered-by';

describe('which worker rendered which frames', () => {
  it('groups frames by worker in frame order', () => {
    const frames = [5, 6, 7, 8].map((frame) => ({ frame, worker: 'ws-2' })).concat([1, 2, 3, 4].map((frame) => ({ frame, worker: 'ws-1' })));
    expect(renderedByText(frames)).toBe('ws-1 frames 1-4, ws-2 frames 5-8');
    expect(renderedByText([{ frame: 3, worker: 'ws-1' }, { frame: 1, worker: null }, { frame: 2, worker: null }])).toBe('the node frames 1-2, ws-1 frame 3');
  });

  it('says nothing when the farm does not say', () => {
    expect(renderedByText([{ frame: 1 }, { frame: 2, worker: undefined }])).toBeNull();
    expect(renderedByText([])).toBeNull();
  });
});
