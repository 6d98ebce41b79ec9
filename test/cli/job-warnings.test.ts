import { describe, expect, it } from 'vitest';
import { formatAnalysisSummary } from '../../src/cli/submit/format-analysis';
import { artistJobWarnings, formatJobWarnings } from '../../src/cli/output/job-warnings';
import { sampleAnalysis } from '../fixtures/analysis';

const runs = { code: 'python-runs', message: 'Text `rig_wobble.py` runs as a module here, as in your Blender.' };
const driver = { code: 'python-driver', message: 'Driver on Cube › Location Z uses Python (`wobble(frame)`): this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.' };

describe('a job\'s warnings on the terminal and in --json', () => {
  it('gives code and message, with a path the message does not name, and drops a passing condition that has passed', () => {
    const analysis = sampleAnalysis({ warnings: [{ code: 'missing-dependency', message: 'A texture is missing.', path: '//tex.png' }, { code: 'no-render-workers', message: 'No worker.' }, driver] });
    expect(artistJobWarnings({ status: 'completed', analysis }, null)).toEqual([{ code: 'missing-dependency', message: 'A texture is missing. (//tex.png)' }, driver]);
  });

  it('prints notes as notes and warnings marked with `!`; nothing without any', () => {
    expect(formatJobWarnings([runs, driver])).toEqual([`Note: ${runs.message}`, 'Warning:', `  ! ${driver.message}`]);
    expect(formatJobWarnings([])).toEqual([]);
  });

  it('the summary of a validated scene shows notes apart from its warnings', () => {
    const lines = formatAnalysisSummary({ fileName: 'wobble.blend', jobId: 'j', analysis: sampleAnalysis({ warnings: [runs, driver] }), renderConfig: { colorManagementPreset: 'default' } });
    expect(lines).toContain(`  Note: ${runs.message}`);
    expect(lines.slice(-2)).toEqual(['  1 warning:', `  ! ${driver.message}`]);
  });
});
