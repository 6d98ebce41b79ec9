import { describe, expect, it } from 'vitest';
import { blenderErrorLineOf, blenderErrorsMessage, isNote, jobWarningsOf } from '../../../src/shared/api';

const noWorker = { code: 'no-render-workers', message: 'No render worker is connected to this node right now; the render will wait until one starts.' };
const driver = { code: 'python-driver', message: 'Driver on Cube › Location Z uses Python (`wobble(frame)`): …' };

describe("a job's one list of warnings", () => {
  it('keeps a passing condition\'s warning only while it may still hold', () => {
    const analysis = { warnings: [noWorker, driver] };
    for (const status of ['validated', 'booting'] as const) expect(jobWarningsOf({ status, analysis }), status).toEqual([noWorker, driver]);
    for (const status of ['rendering', 'finalizing', 'completed', 'failed', 'canceled'] as const) expect(jobWarningsOf({ status, analysis }), status).toEqual([driver]);
  });

  it("leaves a waiting render's words to a node that says where it stands in line, read afresh each time", () => {
    const analysis = { warnings: [noWorker, driver] };
    expect(jobWarningsOf({ status: 'booting', analysis, waiting: { jobsAhead: 0, startsInSeconds: null } })).toEqual([driver]);
    expect(jobWarningsOf({ status: 'booting', analysis, waiting: null })).toEqual([driver]);
    expect(jobWarningsOf({ status: 'validated', analysis, waiting: null })).toEqual([noWorker, driver]);
  });

  it('reads another server\'s entries defensively: a code is enough, anything else is left out', () => {
    expect(jobWarningsOf({ status: 'validated', analysis: { warnings: [{ code: 'odd' }, 'text', { message: 'no code' }, { code: 'x', message: 'y', path: '//a.png' }] } })).toEqual([
      { code: 'odd', message: 'odd' },
      { code: 'x', message: 'y', path: '//a.png' },
    ]);
    expect(jobWarningsOf({ status: 'validated', analysis: null })).toEqual([]);
    expect(jobWarningsOf({ status: 'validated', analysis: { warnings: 'no' } })).toEqual([]);
  });

  it('tells notes from warnings, and finds the line a blender-errors warning quotes', () => {
    expect(isNote({ code: 'python-runs' })).toBe(true);
    expect(isNote(driver)).toBe(false);
    const message = blenderErrorsMessage('Error in PyDriver: expression failed: wobble(frame)', 1);
    expect(message).toBe("Blender reported an error while rendering: “Error in PyDriver: expression failed: wobble(frame)”. The frames may differ from your Blender's; the job's log has the details.");
    expect(blenderErrorLineOf({ code: 'blender-errors', message })).toBe('Error in PyDriver: expression failed: wobble(frame)');
    expect(blenderErrorLineOf(driver)).toBeNull();
  });
});
