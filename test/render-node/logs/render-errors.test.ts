import { describe, expect, it } from 'vitest';
import { renderErrorsOf, withRenderErrors } from '../../../src/render-node/logs/render-errors';
import { sampleAnalysis } from '../../fixtures/analysis';

const LOG = [
  '── Scene analysis ──',
  'Error in PyDriver: expression failed: wobble(frame)',
  '── Render ──',
  'Fra:1 Mem:10M | Rendering',
  '\tBPY_driver_exec: restricted access disallows name \'wobble\', enable auto-execution to support',
  '',
  'Error in PyDriver: expression failed: wobble(frame)',
  'For target: (type=Object, name="Cube", property=location, property_index=2)',
  'Traceback (most recent call last):',
  'NameError: name \'wobble\' is not defined',
  'Saved: \'<job>/out/shot_0001.png\'',
].join('\n');

describe("Blender's errors in a render's log", () => {
  it('counts the error lines of the render parts only, and keeps the first that says what went wrong', () => {
    expect(renderErrorsOf(LOG)).toEqual({ first: 'Error in PyDriver: expression failed: wobble(frame)', count: 3 });
    expect(renderErrorsOf('── Render on the render workers ──\n[box1] Traceback (most recent call last):\n[box1] ValueError: bad')).toEqual({ first: 'ValueError: bad', count: 2 });
    expect(renderErrorsOf('── Scene analysis ──\nError: no\n── Render ──\nFra:1 fine')).toBeNull();
  });

  it('adds one blender-errors warning to the analysis, replacing that of an earlier run, and leaves a clean one as it is', () => {
    const analysis = sampleAnalysis({ warnings: [{ code: 'python-driver', message: 'Driver …' }] });
    const once = withRenderErrors(analysis, LOG);
    expect(once.warnings).toEqual([
      { code: 'python-driver', message: 'Driver …' },
      { code: 'blender-errors', message: "Blender reported 3 errors while rendering: “Error in PyDriver: expression failed: wobble(frame)”. The frames may differ from your Blender's; the job's log has the details." },
    ]);
    expect(withRenderErrors(once, LOG).warnings).toHaveLength(2);
    expect(withRenderErrors(analysis, '── Render ──\nFra:1 fine')).toBe(analysis);
  });
});
