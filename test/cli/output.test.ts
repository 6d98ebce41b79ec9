import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatJobDetails, formatJobList, formatTimestamp } from '../../src/cli/output/format-jobs';
import { formatDownload, formatFrameProgress, formatTrackerRetry, formatTransfer, progressBar } from '../../src/cli/output/format-progress';
import { RateLimitedError, ServerError } from '../../src/core/errors';
import { LiveDisplay } from '../../src/cli/output/live-display';
import { formatTable, truncate } from '../../src/cli/output/table';
import { describeStep } from '../../src/cli/submit/describe-step';
import { formatSubmissionLine, type SubmissionLineState } from '../../src/cli/submit/submission-line';
import { firstLine, readSecret } from '../../src/cli/terminal/read-secret';
import { parseYesNo } from '../../src/cli/terminal/prompt';
import type { Job } from '../../src/shared/api/job';
import { submissionRecordAt } from '../fixtures/submission-record';

const MB = 1_000_000;

function job(overrides: Partial<Job> & Record<string, unknown> = {}): Job {
  return {
    id: '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b',
    status: 'rendering',
    workspaceId: 'w',
    createdAt: '2025-03-14T09:26:00.000Z',
    updatedAt: '2025-03-14T09:30:00.000Z',
    sceneFile: { fileName: 'Shot 010.blend' },
    ...overrides,
  } as Job;
}

describe('progress pieces', () => {
  it('draw bars of a fixed width', () => {
    expect(progressBar(0, 10)).toBe('[          ]');
    expect(progressBar(0.5, 10)).toBe('[=====>    ]');
    expect(progressBar(1, 10)).toBe('[==========]');
    expect(progressBar(7, 10)).toBe('[==========]');
    expect(progressBar(Number.NaN, 4)).toBe('[    ]');
  });

  it('describe an upload with bytes, rate and time left', () => {
    const line = formatTransfer({ bytes: 12 * MB, total: 24 * MB, rate: 3 * MB, etaSeconds: 4, done: false });
    expect(line).toBe('[==========>         ]   50%  12.0 MB of 24.0 MB  3.0 MB/s  4 s left');
    expect(formatTransfer({ bytes: 24 * MB, total: 24 * MB, rate: 3 * MB, etaSeconds: 0, done: true }, { bar: false })).toBe('100%  24.0 MB of 24.0 MB  3.0 MB/s');
  });

  it('says how much of a scene the farm already has', () => {
    expect(formatTransfer({ bytes: 19 * MB, total: 38 * MB, rate: 2 * MB, etaSeconds: 10, done: false, reused: 2062 * MB }, { bar: false })).toBe(
      ' 50%  19.0 MB of 38.0 MB  2.0 MB/s  10 s left  Sending 38.0 MB of 2.1 GB (the rest is already on the farm)',
    );
  });

  it('describe frames and downloads', () => {
    expect(formatFrameProgress(3, 30, { bar: false })).toBe('3/30 frames');
    expect(formatFrameProgress(15, 30)).toBe('[==========>         ]  15/30 frames');
    expect(formatDownload({ jobId: 'j', filesDone: 2, filesSkipped: 0, filesTotal: 4, bytes: 2 * MB, bytesKnown: 4 * MB, rate: MB, done: false }, { bar: false })).toBe('2/4 files  2.0 MB  1.0 MB/s');
  });
});

describe('progress read retries', () => {
  it('say a rate limit plainly, with the wait the server asked for', () => {
    expect(formatTrackerRetry(new RateLimitedError('The server is rate limiting requests (429); tried to read job progress but gave up waiting.', { retryAfterMs: 300_000 }), 300_000)).toBe(
      'Rate limited by the server (429); reading job progress again in 5 min 00 s.',
    );
    expect(formatTrackerRetry(new ServerError('The server failed to read job progress (503).', { status: 503 }), 4_000)).toBe(
      'Could not read job progress (The server failed to read job progress (503).) Trying again in 4 s.',
    );
  });
});

describe('tables', () => {
  it('align columns without trailing blanks', () => {
    expect(formatTable([['ID', 'STATUS', 'FRAMES'], ['abc', 'completed', '3/3'], ['abcdef', 'failed', '-']], ['left', 'left', 'right'])).toEqual([
      'ID      STATUS     FRAMES',
      'abc     completed     3/3',
      'abcdef  failed          -',
    ]);
    expect(truncate('a long scene name', 8)).toBe('a long …');
  });
});

describe('job output', () => {
  it('lists jobs with frames, times, scene and a paging hint', () => {
    const lines = formatJobList({ jobs: [job({ progress: { completedFrames: 3, totalFrames: 30 } }), job({ id: 'aaaa', status: 'completed', sceneFile: null })], pagination: { page: 1, pageSize: 2, total: 5, totalPages: 3 } });
    expect(lines[0]).toMatch(/^ID +STATUS +FRAMES +TIME +CREATED +SCENE$/);
    expect(lines[1]).toContain('1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b  rendering');
    expect(lines[1]).toContain('3/30');
    expect(lines[1]).toContain(formatTimestamp('2025-03-14T09:26:00.000Z'));
    expect(lines[1]).toMatch(/Shot 010$/);
    expect(lines[2]).toMatch(/aaaa +completed +- +- +\S+ \S+ +-$/);
    expect(lines.at(-1)).toBe('Page 1 of 3, 5 jobs. Next: renderdrop jobs --page 2');
    expect(formatJobList({ jobs: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } }, { status: 'failed' })).toEqual(['No failed jobs.']);
  });

  it('tells waiting from rendering: no clock in line, time left from the rendering time alone', () => {
    const timeline = [
      { status: 'booting', at: '2025-03-14T09:26:00.000Z' },
      { status: 'rendering', at: '2025-03-14T09:30:00.000Z' },
    ];
    const now = Date.parse('2025-03-14T09:30:20.000Z');
    const waiting = job({ id: 'w1', status: 'booting', timeline: timeline.slice(0, 1), waiting: { jobsAhead: 2 }, progress: { completedFrames: 0, totalFrames: 8 } });
    const rendering = job({ id: 'r1', timeline, progress: { completedFrames: 4, totalFrames: 8 } });
    const lines = formatJobList({ jobs: [waiting, rendering], pagination: { page: 1, pageSize: 20, total: 2, totalPages: 1 } }, {}, now);
    expect(lines[1]).toMatch(/^w1 +booting +0\/8 +Waiting — 2 jobs ahead +/);
    expect(lines[2]).toMatch(/^r1 +rendering +4\/8 +20 s, 20 s left +/);
    expect(formatJobDetails(waiting, null, now)).toContainEqual(expect.stringMatching(/^Time +Waiting — 2 jobs ahead$/));
    expect(formatJobDetails(rendering, null, now)).toContainEqual(expect.stringMatching(/^Time +Rendering for 20 s, about 20 s left$/));
    const canceled = job({ status: 'canceled', timeline: [...timeline.slice(0, 1), { status: 'canceled', at: '2025-03-14T09:29:00.000Z' }] });
    expect(formatJobDetails(canceled, null, now)).toContainEqual(expect.stringMatching(/^Time +It did not render$/));
  });

  it("shows a studio node's priority, required tags and when a waiting job starts, or why it cannot say", () => {
    const now = Date.parse('2025-03-14T09:30:20.000Z');
    const starts = job({ id: 's1', status: 'booting', priority: 75, requires: ['big-ram'], waiting: { jobsAhead: 1, startsInSeconds: 240 }, progress: { completedFrames: 0, totalFrames: 8 } });
    const lines = formatJobDetails(starts, null, now);
    expect(lines).toContainEqual(expect.stringMatching(/^Priority +75 \(high\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^Needs tags +big-ram$/));
    expect(lines).toContainEqual(expect.stringMatching(/^Time +Starts in about 4 min$/));
    const list = formatJobList({ jobs: [starts], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } }, {}, now);
    expect(list[1]).toMatch(/^s1 +booting +0\/8 +Starts in about 4 min +/);
    const why = 'Waiting for a render worker tagged big-ram';
    const stuck = formatJobDetails(job({ status: 'booting', priority: 50, requires: ['big-ram'], waiting: { jobsAhead: 0, startsInSeconds: null }, statusMessage: why }), null, now);
    expect(stuck).toContainEqual(expect.stringMatching(new RegExp(`^Time +${why}$`)));
    expect(stuck.filter((l) => l.includes(why))).toHaveLength(1);
    expect(formatJobDetails(job({ status: 'booting' }), null, now).some((l) => /^(Priority|Needs tags)/.test(l))).toBe(false);
  });

  it('shows one job with its failure and what the server adjusted', () => {
    const lines = formatJobDetails(
      job({
        status: 'failed',
        failedReason: { name: 'SceneUnreadable', type: 'scene', message: 'not a .blend' },
        finalConfig: { colorManagementPreset: 'default', sampleCount: 16, frameRanges: ['1-3'], adjustments: [{ field: 'denoisingEnabled', reason: 'This Blender has no denoiser; denoising was switched off.' }] },
      }),
      { jobId: 'x', completedFrames: 1, totalFrames: 3 },
    );
    expect(lines).toContain('Job       1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b');
    expect(lines.join('\n')).toMatch(/Status +failed +\[.*\] +1\/3 frames/);
    expect(lines.join('\n')).toMatch(/Failed +SceneUnreadable \(scene\): not a \.blend/);
    expect(lines.join('\n')).toMatch(/Settings +frames 1-3, 16 samples, default colour/);
    expect(lines.slice(-3)).toEqual([
      'Adjusted by the server:',
      '  - This Blender has no denoiser; denoising was switched off.',
      '1 frame was rendered before it stopped: `renderdrop download 1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b` fetches it, `renderdrop verify 1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b --fix` renders the rest.',
    ]);
  });

  it('describes where an unfinished submission stopped', () => {
    expect(describeStep(submissionRecordAt('upload-target'))).toBe('not uploaded yet');
    expect(describeStep(submissionRecordAt('render-requested', { jobId: 'j1' }))).toBe('rendering job j1');
    expect(describeStep(submissionRecordAt('completed', { jobId: 'j1' }))).toBe('job j1 rendered, not downloaded yet');
    const zip = submissionRecordAt('uploaded');
    const several = { ...zip, file: { ...zip.file, fileType: 'zip' as const, blendFiles: ['a.blend', 'b.blend'] } };
    expect(describeStep(several)).toBe('uploaded; the scene of the zip is still to be chosen');
    expect(describeStep({ ...several, validateBody: { scenePath: 'b.blend' } })).toBe('uploaded; job not created yet');
    expect(describeStep(submissionRecordAt('traced'))).toBe('not packed or uploaded yet');
    expect(describeStep(submissionRecordAt('packing'))).toBe('stopped while packing');
    expect(describeStep(submissionRecordAt('packed'))).toBe('not uploaded yet');
  });
});

describe('submission lines', () => {
  const base: SubmissionLineState = { name: 'shot.blend', phase: 'starting', jobId: null, status: null, pack: null, bundle: null, upload: null, frames: null, download: null };

  it('say what each submission is doing', () => {
    expect(formatSubmissionLine({ ...base, phase: 'uploading', upload: { bytes: MB, total: 2 * MB, rate: MB, etaSeconds: 1, done: false } }, { nameWidth: 12, bar: false })).toBe(
      'shot.blend    uploading     50%  1.0 MB of 2.0 MB  1.0 MB/s  1 s left',
    );
    expect(formatSubmissionLine({ ...base, phase: 'uploading', bundle: { files: 12, bytes: 48.2 * 1000 * 1000 }, upload: { bytes: MB, total: 2 * MB, rate: MB, etaSeconds: 1, done: false } }, { nameWidth: 12, bar: false })).toBe(
      'shot.blend    uploading    with 12 files (48.2 MB)   50%  1.0 MB of 2.0 MB  1.0 MB/s  1 s left',
    );
    const pack = { bytesDone: MB, bytesTotal: 4 * MB, filesDone: 3, filesTotal: 14, entry: 'textures/grid.png', done: false };
    expect(formatSubmissionLine({ ...base, phase: 'packing', pack }, { nameWidth: 12, bar: false })).toBe('shot.blend    packing       25%  3/14 files  1.0 MB of 4.0 MB  textures/grid.png');
    expect(formatSubmissionLine({ ...base, phase: 'validating', jobId: '1f2e3d4c-5b6a' }, { nameWidth: 10, bar: false })).toBe('shot.blend  validating   job 1f2e3d4c');
    expect(formatSubmissionLine({ ...base, phase: 'rendering', status: 'rendering', jobId: 'abc', frames: { completedFrames: 2, totalFrames: 4 } }, { nameWidth: 10, bar: true })).toBe(
      'shot.blend  rendering    [==========>         ]  2/4 frames  job abc',
    );
  });

  it('say how many frames are already in the folder while the job renders', () => {
    const onDisk = { jobId: 'abc', onDisk: 1, totalFrames: 4 };
    expect(formatSubmissionLine({ ...base, phase: 'rendering', status: 'rendering', jobId: 'abc', frames: { completedFrames: 2, totalFrames: 4 }, onDisk }, { nameWidth: 10, bar: false })).toBe(
      'shot.blend  rendering    2/4 frames  1 of 4 frames on disk  job abc',
    );
  });
});

describe('live display', () => {
  const sink = (isTTY: boolean) => {
    let text = '';
    return { stream: { isTTY, columns: 40, write: (chunk: string) => (text += chunk) }, text: () => text };
  };

  it('prints plain lines at most every interval on a pipe, and changes that matter at once', () => {
    let now = 0;
    const out = sink(false);
    const display = new LiveDisplay(out.stream, { live: false, plainIntervalMs: 5_000, now: () => now });
    display.update('a', 'a 10%');
    now = 1_000;
    display.update('a', 'a 20%');
    display.update('a', 'a validating', { force: true });
    now = 7_000;
    display.update('a', 'a 30%');
    display.update('a', 'a 30%', { force: true });
    display.print('a note');
    display.finish('a', 'a done');
    expect(out.text()).toBe('a 10%\na validating\na 30%\na note\na done\n');
  });

  it('redraws its lines in place on a terminal, cut to its width, with notes above', () => {
    const out = sink(true);
    const display = new LiveDisplay(out.stream, { live: true, redrawMs: 0 });
    display.update('a', 'first');
    display.update('b', 'second line that is much longer than forty columns');
    display.print('note');
    display.finish('a', 'a done');
    display.close();
    const text = out.text();
    expect(text).toBe(
      'first\n' +
        '\x1b[1A\r\x1b[0Jfirst\nsecond line that is much longer than f…\n' +
        '\x1b[2A\r\x1b[0Jnote\nfirst\nsecond line that is much longer than f…\n' +
        '\x1b[2A\r\x1b[0Ja done\nsecond line that is much longer than f…\n',
    );
  });
});

describe('terminal input', () => {
  it('reads yes and no', () => {
    expect(parseYesNo('', true)).toBe(true);
    expect(parseYesNo(' Y ', false)).toBe(true);
    expect(parseYesNo('no', true)).toBe(false);
    expect(parseYesNo('maybe', true)).toBeNull();
  });

  it('reads a piped key from the first non-empty line', async () => {
    expect(firstLine('\n  RJ-abc  \nsecond\n')).toBe('RJ-abc');
    const input = new PassThrough();
    input.end('RJ-piped-key\n');
    const output = new PassThrough();
    await expect(readSecret(input, output, 'API key: ')).resolves.toBe('RJ-piped-key');
    expect(output.read()).toBeNull();
  });
});
