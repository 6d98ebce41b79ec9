import { describe, expect, it } from 'vitest';
import { afterRepair } from '../../src/renderer/components/detail/render-missing-frames';
import type { FolderCheckView } from '../../src/shared/contract/frame-views';

const check = (missing: number[]): FolderCheckView => ({ jobId: 'j', folder: '/f', expected: 4, present: 4 - missing.length, missing, broken: [], downloadable: [], cannotRender: null });

describe('after "Render missing frames"', () => {
  it('stops saying "Rendering … again" once the folder holds every frame', () => {
    expect(afterRepair(2, check([2, 3]))).toEqual({ kind: 'started', count: 2, arrived: 0 });
    expect(afterRepair(2, check([3]))).toEqual({ kind: 'started', count: 2, arrived: 1 });
    expect(afterRepair(2, check([]))).toEqual({ kind: 'checked', check: check([]) });
  });
});
