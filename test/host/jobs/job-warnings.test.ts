import { describe, expect, it } from 'vitest';
import { warningWordsOf } from '../../../src/host/jobs/job-warnings';
import { sampleAnalysis } from '../../fixtures/analysis';

describe('warningWordsOf', () => {
  it('names each kind of warning once, in an artist\'s words', () => {
    const analysis = sampleAnalysis({
      warnings: [
        { code: 'missing-dependency', message: 'a', path: '//a.png' },
        { code: 'missing-dependency', message: 'b', path: '//b.png' },
        { code: 'newer-blender', message: 'c' },
        { code: 'something-else', message: 'd' },
      ],
    });
    expect(warningWordsOf(analysis)).toEqual(['files missing', 'saved with a newer Blender', 'a warning from the farm']);
  });

  it('is empty without warnings or an analysis it can read', () => {
    expect(warningWordsOf(sampleAnalysis({ warnings: [] }))).toEqual([]);
    expect(warningWordsOf(null)).toEqual([]);
    expect(warningWordsOf({ warnings: 'no' })).toEqual([]);
  });
});
