import { describe, expect, it } from 'vitest';
import { blenderErrorLineIn, warningWordsOf } from '../../../src/host/jobs/job-warnings';
import { blenderErrorsMessage } from '../../../src/shared/api';
import { sampleAnalysis } from '../../fixtures/analysis';

describe('warningWordsOf', () => {
  it('names each kind of warning once, in an artist\'s words', () => {
    const analysis = sampleAnalysis({
      warnings: [
        { code: 'missing-dependency', message: 'a', path: '//a.png' },
        { code: 'missing-dependency', message: 'b', path: '//b.png' },
        { code: 'newer-blender', message: 'c' },
        { code: 'different-blender', message: 'Saved with Blender 3.4, rendered with Blender 4.3.2: …' },
        { code: 'something-else', message: 'd' },
      ],
    });
    expect(warningWordsOf(analysis)).toEqual(['files missing', 'saved with a newer Blender', 'rendered with another Blender version', 'a warning from the farm']);
  });

  it('is empty without warnings or an analysis it can read', () => {
    expect(warningWordsOf(sampleAnalysis({ warnings: [] }))).toEqual([]);
    expect(warningWordsOf(null)).toEqual([]);
    expect(warningWordsOf({ warnings: 'no' })).toEqual([]);
  });

  it('words scene Python and Blender\'s errors, leaves notes out, and drops a passing condition once it has passed', () => {
    const analysis = sampleAnalysis({
      warnings: [
        { code: 'no-render-workers', message: 'No render worker is connected to this node right now; the render will wait until one starts.' },
        { code: 'python-driver', message: 'Driver …' },
        { code: 'python-module', message: 'Text …' },
        { code: 'python-runs', message: 'Text … runs here' },
        { code: 'blender-errors', message: blenderErrorsMessage('Error in PyDriver: expression failed: wobble(frame)', 1) },
      ],
    });
    expect(warningWordsOf(analysis, null, 'validated')).toEqual(['no render worker connected', 'scene Python not run', 'Blender reported errors']);
    expect(warningWordsOf(analysis, null, 'rendering')).toEqual(['scene Python not run', 'Blender reported errors']);
    expect(blenderErrorLineIn(analysis, 'completed')).toBe('Error in PyDriver: expression failed: wobble(frame)');
    expect(blenderErrorLineIn(sampleAnalysis({ warnings: [] }), 'completed')).toBeNull();
  });
});
