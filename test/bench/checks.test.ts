import { describe, expect, it } from 'vitest';
import {
  checkChunkedUpload,
  checkDistributed,
  checkFrameOrder,
  checkDownload,
  checkFramePreviews,
  checkJobsList,
  checkNodeFlow,
  checkPack,
  checkQueueSync,
  checkServeFile,
  checkStartup,
  checkTrace,
  checkTracker,
  checkUiQueue,
  checkUpload,
  ImpossibleFigures,
  refuseImpossible,
  type ChunkFigures,
  type ChunkedUploadFigures,
  type DistributedFigures,
  type DownloadFigures,
  type FramePreviewsFigures,
  type JobsListFigures,
  type NodeFlowFigures,
  type PackFigures,
  type QueueSyncFigures,
  type ServeFileFigures,
  type StartupFigures,
  type TraceFigures,
  type TrackerFigures,
  type UiQueueFigures,
  type UploadFigures,
} from '../../bench/lib/checks';

const MiB = 1024 ** 2;

/** Exactly one problem, naming `figure`. */
function refusedFor(problems: string[], figure: RegExp): void {
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(figure);
}

describe('refuseImpossible', () => {
  it('lets figures without problems through', () => {
    expect(() => refuseImpossible('upload', [])).not.toThrow();
  });

  it('stops with one line per refused figure, naming the benchmark', () => {
    const error = (() => {
      try {
        refuseImpossible('distributed', ['a is -1 ms: it cannot be negative', 'b is 1, but c is 2']);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ImpossibleFigures);
    expect((error as Error).message.split('\n')).toEqual(['distributed: figure refused: a is -1 ms: it cannot be negative', 'distributed: figure refused: b is 1, but c is 2']);
  });
});

describe('checkDistributed', () => {
  const chunk = (index: number, over: Partial<ChunkFigures> = {}): ChunkFigures => ({
    index,
    frames: 8,
    rendered: 8,
    pickupMs: 40,
    prepareMs: 20,
    blenderMs: 5900,
    afterMs: 3,
    frameMs: 4950,
    startupMs: 950,
    schedulingMs: 63,
    ...over,
  });
  const good = (): DistributedFigures => ({
    frames: 16,
    runs: [
      { mode: 'embedded', ms: 6900, parallel: 1, frameSeconds: 6.1, framesRecorded: 16 },
      { mode: 'distributed', ms: 6000, parallel: 2, frameSeconds: 9.9, framesRecorded: 16, chunkRecords: 2, chunks: [chunk(0), chunk(1)], workMs: 6010, redisCommands: 236 },
    ],
    ratio: 0.87,
  });

  it('accepts a run whose chunks add up', () => {
    expect(checkDistributed(good())).toEqual([]);
  });

  it('refuses a run that lists fewer chunks than the node recorded (one of two reported)', () => {
    const f = good();
    const run = f.runs[1]!;
    const problems = checkDistributed({ ...f, runs: [f.runs[0]!, { ...run, chunks: [chunk(0)] }] });
    expect(problems).toContain("run 2 distributed: chunks with a worker's report is 1, but the chunks in the node's record of the job is 2");
    expect(problems.some((p) => /frames of its chunks is 8, but the frames the node recorded is 16/.test(p))).toBe(true);
  });

  it('refuses chunks x frames that do not make the frames rendered', () => {
    const f = good();
    const run = f.runs[1]!;
    refusedFor(checkDistributed({ ...f, runs: [{ ...run, chunks: [chunk(0), chunk(1, { frames: 7, rendered: 8 })] }] }), /frames of its chunks is 15, but the frames the node recorded is 16/);
  });

  it('refuses a negative Blender start-up per chunk', () => {
    const f = good();
    const run = f.runs[1]!;
    refusedFor(checkDistributed({ ...f, runs: [{ ...run, chunks: [chunk(0), chunk(1, { startupMs: -2223 })] }] }), /chunk 2: Blender start-up and scene load is -2223 ms: it cannot be negative/);
  });

  it("refuses a chunk's Blender time longer than the render it is part of", () => {
    const f = good();
    const run = f.runs[1]!;
    refusedFor(checkDistributed({ ...f, runs: [{ ...run, chunks: [chunk(0, { blenderMs: 7000 }), chunk(1)] }] }), /chunk 1: Blender's time is 7000 ms, more than the time from the render request/);
  });

  it('refuses chunk figures with no wall time to hold them', () => {
    const f = good();
    const run = f.runs[1]!;
    expect(checkDistributed({ ...f, runs: [{ ...run, workMs: Number.NaN }] })).toContain('the time from the render request to the last chunk done is NaN ms: not a measured number');
  });

  it('refuses frame times beyond what the Blenders could render in the wall time', () => {
    const f = good();
    refusedFor(checkDistributed({ ...f, runs: [{ ...f.runs[0]!, frameSeconds: 7.5 }] }), /Blender's time of its frames is 7500 ms, more than the wall time x 1 Blender/);
  });

  it('refuses a job whose frames recorded differ from the scene', () => {
    const f = good();
    refusedFor(checkDistributed({ ...f, runs: [{ ...f.runs[0]!, framesRecorded: 15 }] }), /frames recorded is 15, but the frames of the scene is 16/);
  });
});

describe('checkUpload', () => {
  const sample = { client: 'renderdrop', size: 64 * MiB, transferSeconds: 0.4, processSeconds: 0.5, mibPerSecond: 160, cpuSeconds: 0.2, maxRssBytes: 90e6, nodeCpuSeconds: 0.3 };
  const good = (): UploadFigures => ({
    runs: 1,
    sizes: [64 * MiB],
    samples: [sample, { ...sample, client: 'curl' }],
    summaries: [
      { client: 'renderdrop', size: 64 * MiB, runs: 1, mibPerSecond: 160, transferSeconds: 0.4, processSeconds: 0.5 },
      { client: 'curl', size: 64 * MiB, runs: 1, mibPerSecond: 160, transferSeconds: 0.4, processSeconds: 0.5 },
    ],
  });

  it('accepts uploads that add up', () => {
    expect(checkUpload(good())).toEqual([]);
  });

  it('refuses a transfer longer than the process it ran in', () => {
    refusedFor(checkUpload({ ...good(), samples: [{ ...sample, transferSeconds: 0.6, mibPerSecond: 106 }] }), /transfer time is 0.6 s, more than the client process's wall time/);
  });

  it('refuses a negative CPU time', () => {
    refusedFor(checkUpload({ ...good(), samples: [{ ...sample, cpuSeconds: -0.1 }] }), /CPU time is -0.1 s: it cannot be negative/);
  });

  it('refuses medians over fewer runs than asked for', () => {
    expect(checkUpload({ ...good(), runs: 2 })).toEqual([
      'renderdrop upload of 64 MiB: runs in the median is 1, but the runs asked for is 2',
      'curl upload of 64 MiB: runs in the median is 1, but the runs asked for is 2',
    ]);
  });
});

describe('checkDownload', () => {
  const sample = (variant: string, over = {}) => ({ variant, wallSeconds: 1, innerSeconds: variant === 'renderdrop' ? 0.8 : null, cpuSeconds: 0.5, nodeCpuSeconds: 0.4, requests: variant === 'renderdrop' ? 41 : 40, requestsMade: variant === 'renderdrop' ? 41 : 40, ...over });
  const good = (): DownloadFigures => ({
    files: 40,
    runs: 1,
    variants: ['renderdrop', 'xargs-curl'],
    samples: [sample('renderdrop'), sample('xargs-curl')],
    summaries: [
      { variant: 'renderdrop', wallSeconds: 1, innerSeconds: 0.8 },
      { variant: 'xargs-curl', wallSeconds: 1, innerSeconds: null },
    ],
  });

  it('accepts downloads whose requests add up', () => {
    expect(checkDownload(good())).toEqual([]);
  });

  it('refuses a request count that differs from the requests made', () => {
    refusedFor(checkDownload({ ...good(), samples: [sample('xargs-curl', { requests: 39 })], summaries: undefined }), /xargs-curl: requests counted at the node is 39, but the requests it makes for 40 files is 40/);
  });

  it('refuses time inside the process longer than the process', () => {
    refusedFor(checkDownload({ ...good(), samples: [sample('renderdrop', { innerSeconds: 1.2 })], summaries: undefined }), /time inside the process is 1.2 s, more than the process's wall time/);
  });
});

describe('checkTracker', () => {
  const counts = { progress: 20, jobReads: 10, other: 0, total: 30 };
  const made = { progress: 20, jobReads: 10, other: 0 };
  const good = (): TrackerFigures => ({
    ticks: 20,
    fixedTicks: [{ poller: 'tracker', counts, made, firstTick: 11, laterPerTick: 1, maxPerTick: 1, medianTickMs: 1.4 }],
    realtime: [{ poller: 'tracker', seconds: 2.01, plannedSeconds: 2, counts: { progress: 2, jobReads: 0, other: 0, total: 2 }, made: { progress: 2, jobReads: 0, other: 0 } }],
  });

  it('accepts counts that match the requests made', () => {
    expect(checkTracker(good())).toEqual([]);
  });

  it('refuses requests counted that differ from the requests made', () => {
    const f = good();
    refusedFor(checkTracker({ ...f, fixedTicks: [{ ...f.fixedTicks[0]!, made: { ...made, jobReads: 11 } }] }), /GET \/jobs\/\{id\} counted at the node is 10, but the number the client made is 11/);
  });

  it('refuses per-tick figures that do not make the total', () => {
    const f = good();
    refusedFor(checkTracker({ ...f, fixedTicks: [{ ...f.fixedTicks[0]!, firstTick: 12 }] }), /first tick \+ later ticks is 31, but the requests counted is 30/);
  });

  it('refuses a negative tick time', () => {
    const f = good();
    refusedFor(checkTracker({ ...f, fixedTicks: [{ ...f.fixedTicks[0]!, medianTickMs: -1 }] }), /median tick time is -1 ms/);
  });
});

describe('checkQueueSync', () => {
  const good = (): QueueSyncFigures => ({
    minutes: 1,
    newJobAtS: 20,
    results: [{ scenario: 'idle', poller: 'app', counts: { progress: 5, jobReads: 0, other: 10, total: 15 }, made: 15, newJobSeenAfterS: 4, completionSeenAfterS: null }],
  });

  it('accepts counts that match the requests made', () => {
    expect(checkQueueSync(good())).toEqual([]);
  });

  it('refuses requests counted that differ from the requests made', () => {
    refusedFor(checkQueueSync({ ...good(), results: [{ ...good().results[0]!, made: 14 }] }), /requests counted at the node is 15, but the number the client made is 14/);
  });

  it('refuses a new job seen before it was added', () => {
    refusedFor(checkQueueSync({ ...good(), results: [{ ...good().results[0]!, newJobSeenAfterS: -3 }] }), /new job seen after is -3 s/);
  });
});

describe('checkJobsList', () => {
  const result = { label: 'unfiltered', index: 'jobs(status, seq)', requests: 459, latencies: 459, probes: 20, counted: 479, clientSeconds: 1, wallSeconds: 1.2, requestsPerSecond: 459, medianMs: 6.6, p99Ms: 33.8, healthzMedianMs: 10.6, healthzMaxMs: 23 };
  const good = (): JobsListFigures => ({ results: [result] });

  it('accepts load figures that add up', () => {
    expect(checkJobsList(good())).toEqual([]);
  });

  it('refuses requests counted that differ from the requests made', () => {
    refusedFor(checkJobsList({ results: [{ ...result, counted: 470 }] }), /requests counted at the node is 470, but the requests the client made/);
  });

  it('refuses a p99 below the median', () => {
    refusedFor(checkJobsList({ results: [{ ...result, p99Ms: 5 }] }), /p99 latency is 5 ms, less than .*median latency/);
  });
});

describe('checkNodeFlow', () => {
  const flow = { label: 'node', flow: 910, uploadValidate: 160, renderFinalize: 740, download: 10, framesDownloaded: 3 };
  const good = (): NodeFlowFigures => ({ frames: 3, bare: [{ ms: 600, frames: 3 }], flows: [flow] });

  it('accepts phases that make the flow', () => {
    expect(checkNodeFlow(good())).toEqual([]);
  });

  it('refuses a negative phase', () => {
    refusedFor(checkNodeFlow({ ...good(), flows: [{ ...flow, download: -5, uploadValidate: 175 }] }), /download is -5 ms: it cannot be negative/);
  });

  it('refuses phases longer than the whole flow', () => {
    refusedFor(checkNodeFlow({ ...good(), flows: [{ ...flow, renderFinalize: 800 }] }), /sum of the phases is 970 ms, more than the whole flow/);
  });

  it('refuses frames downloaded that are not the frames of the scene', () => {
    refusedFor(checkNodeFlow({ ...good(), flows: [{ ...flow, framesDownloaded: 2 }] }), /frames downloaded is 2, but the frames of the scene is 3/);
  });
});

describe('checkFramePreviews', () => {
  const good = (): FramePreviewsFigures => ({ frames: 2, renders: [{ previews: false, ms: 750, framesWritten: 2, previewsWritten: 0 }, { previews: true, ms: 780, framesWritten: 2, previewsWritten: 2 }] });

  it('accepts renders with a preview a frame', () => {
    expect(checkFramePreviews(good())).toEqual([]);
  });

  it('refuses previews that are not one a frame', () => {
    refusedFor(checkFramePreviews({ ...good(), renders: [{ previews: true, ms: 780, framesWritten: 2, previewsWritten: 1 }] }), /previews written is 1, but the frames asked for is 2/);
  });

  it('refuses a render of no time', () => {
    refusedFor(checkFramePreviews({ ...good(), renders: [{ previews: false, ms: 0, framesWritten: 2, previewsWritten: 0 }] }), /wall time is 0 ms: it must be more than 0/);
  });
});

describe('checkServeFile', () => {
  const good = (): ServeFileFigures => ({ files: 20, fetches: [{ route: 'hand', range: true, seconds: 0.03, requests: 20, answered: 20 }] });

  it('accepts one answer a file', () => {
    expect(checkServeFile(good())).toEqual([]);
  });

  it('refuses requests counted that differ from the files fetched', () => {
    refusedFor(checkServeFile({ files: 20, fetches: [{ route: 'send', range: false, seconds: 0.03, requests: 21, answered: 20 }] }), /requests counted at the server is 21, but the files curl fetched is 20/);
  });
});

describe('checkTrace', () => {
  const row = { scene: 'small', blenderSeconds: [0.5], processSeconds: [0.1], firstTraceSeconds: [0.01], warmTraceSeconds: [0.002], blends: 3, dependencies: 4 };
  const good = (): TraceFigures => ({ runs: 1, rows: [row] });

  it('accepts traces within their process', () => {
    expect(checkTrace(good())).toEqual([]);
  });

  it('refuses a trace longer than the process it ran in', () => {
    refusedFor(checkTrace({ runs: 1, rows: [{ ...row, firstTraceSeconds: [0.2] }] }), /first trace of run 1 is 0.2 s, more than the trace process's wall time/);
  });

  it('refuses samples missing from a row', () => {
    refusedFor(checkTrace({ runs: 2, rows: [{ ...row, blenderSeconds: [0.5, 0.6], processSeconds: [0.1, 0.1], firstTraceSeconds: [0.01, 0.01], warmTraceSeconds: [0.002] }] }), /warmTraceSeconds measured is 1, but the runs asked for is 2/);
  });
});

describe('checkPack', () => {
  const sample = (tool: string, over = {}) => ({ tool, case: '32 MiB of textures', size: 32 * MiB, seconds: 0.2, mibPerSecond: 160, cpuSeconds: 0.1, zipBytes: 32 * MiB + 2048, ...over });
  const good = (): PackFigures => ({ runs: 1, cases: ['32 MiB of textures'], samples: [sample('renderdrop'), sample('zip')], summary: [{ case: '32 MiB of textures', ratio: 1 }] });

  it('accepts bundles that hold their data', () => {
    expect(checkPack(good())).toEqual([]);
  });

  it('refuses a bundle smaller than the random bytes it stores', () => {
    refusedFor(checkPack({ ...good(), samples: [sample('renderdrop', { zipBytes: 1024 })], summary: undefined }), /data packed \(stored, random bytes\) is 33554432 bytes, more than the bundle that holds it/);
  });

  it('refuses medians over fewer runs than asked for', () => {
    refusedFor(checkPack({ ...good(), samples: [sample('renderdrop')] }), /zip, 32 MiB of textures: runs in the median is 0, but the runs asked for is 1/);
  });
});

describe('checkStartup', () => {
  const good = (): StartupFigures => ({ runs: 2, rows: [{ label: '--version', samples: [0.05, 0.06], wallSeconds: 0.055, ratio: 1.4 }] });

  it('accepts every run measured', () => {
    expect(checkStartup(good())).toEqual([]);
  });

  it('refuses a negative time', () => {
    refusedFor(checkStartup({ runs: 2, rows: [{ label: '--help', samples: [0.05, -0.01], wallSeconds: 0.02, ratio: 0.5 }] }), /--help: wall time is -0.01 s/);
  });
});

describe('checkUiQueue', () => {
  const sample = { page: 'UI', firstPaintMs: 290, framesMeasured: 29, frameMedianMs: 16.7, frameP95Ms: 33.3, frameMaxMs: 33.4, slowFrames: 0 };
  const good = (): UiQueueFigures => ({ frames: 30, samples: [sample] });

  it('accepts frame times in order', () => {
    expect(checkUiQueue(good())).toEqual([]);
  });

  it('refuses more slow frames than frames measured', () => {
    refusedFor(checkUiQueue({ frames: 30, samples: [{ ...sample, slowFrames: 31 }] }), /frames over 50 ms is 31, more than the frames measured/);
  });

  it('refuses a frame count that is not the frames scrolled', () => {
    refusedFor(checkUiQueue({ frames: 30, samples: [{ ...sample, framesMeasured: 28 }] }), /scroll frames measured is 28, but the frames scrolled after the first is 29/);
  });
});

describe('checkFrameOrder', () => {
  const run = (over: Record<string, unknown> = {}) => ({
    mode: 'embedded',
    order: 'spread',
    ms: 10_500,
    renderMs: 10_000,
    framesRecorded: 4,
    writtenAtMs: [2000, 4000, 7000, 10_000],
    blenderCpuSeconds: 18,
    doneAtEighth: 0,
    widestGapAtEighth: 1,
    ...over,
  });

  it('accepts a render whose frames all came once, inside its render time', () => {
    expect(checkFrameOrder({ frames: 4, cpus: 2, runs: [run()], ratios: { 'embedded: spread / in order': 1.01 } })).toEqual([]);
  });

  it('refuses a frame missing, a frame counted after the render ended, a gap wider than the shot, and more CPU than the machine has', () => {
    expect(checkFrameOrder({ frames: 4, cpus: 2, runs: [run({ framesRecorded: 3, writtenAtMs: [2000, 4000, 7000] })] })).toEqual([
      'run 1 embedded spread: frames recorded is 3, but the frames of the shot is 4',
      'run 1 embedded spread: frame times is 3, but the frames of the shot is 4',
    ]);
    refusedFor(checkFrameOrder({ frames: 4, cpus: 2, runs: [run({ writtenAtMs: [2000, 4000, 7000, 12_000] })] }), /a frame's time after the request is 12000 ms, more than the render time \(10000 ms\)/);
    refusedFor(checkFrameOrder({ frames: 4, cpus: 2, runs: [run({ widestGapAtEighth: 1.5 })] }), /widest gap at an eighth is 1.5, more than the whole shot/);
    refusedFor(checkFrameOrder({ frames: 4, cpus: 2, runs: [run({ blenderCpuSeconds: 30 })] }), /Blender's CPU time is 30 s, more than the wall time on 2 CPUs \(21 s\)/);
  });
});

describe('checkChunkedUpload', () => {
  const good = (over: Partial<ChunkedUploadFigures> = {}): ChunkedUploadFigures => ({
    runs: 2,
    mbit: 100,
    firstZipSeconds: [4.1, 4.3],
    firstChunkedSeconds: [4.0, 4.4],
    bundleBytes: 1024 * MiB,
    movedSent: 12 * MiB,
    movedReused: 1012 * MiB,
    textureBytes: 64 * MiB,
    repaintSent: 65 * MiB,
    repaintReused: 959 * MiB,
    slowFullSeconds: 90,
    slowChunkedSeconds: 2.5,
    slowChunkedSent: 13 * MiB,
    workerSceneBytes: 1024 * MiB,
    workerFetched: 20 * MiB,
    ...over,
  });

  it('accepts a summary whose bytes make the bundle and whose throttled uploads take the link their time', () => {
    expect(checkChunkedUpload(good())).toEqual([]);
  });

  it('refuses a run missing and a time that is not a time', () => {
    refusedFor(checkChunkedUpload(good({ firstChunkedSeconds: [4.0] })), /first submissions in chunks is 1, but the runs asked for is 2/);
    refusedFor(checkChunkedUpload(good({ firstZipSeconds: [4.1, Number.NaN] })), /a first zip \+ PUT is NaN s: not a measured number/);
    refusedFor(checkChunkedUpload(good({ firstChunkedSeconds: [4.0, 0] })), /a first submission in chunks is 0 s: it must be more than 0/);
  });

  it('refuses bytes that cannot make the bundle', () => {
    refusedFor(checkChunkedUpload(good({ movedReused: 1100 * MiB })), /re-saved: bytes reused is .*, more than the bundle/);
    refusedFor(checkChunkedUpload(good({ repaintSent: 10 * MiB, repaintReused: 100 * MiB })), /repainted: .* bytes sent and .* reused cannot make a 1073741824-byte bundle/);
    refusedFor(checkChunkedUpload(good({ movedSent: -1 })), /re-saved: bytes sent is -1 bytes: it cannot be negative/);
    refusedFor(checkChunkedUpload(good({ textureBytes: 2048 * MiB })), /the texture is .*, more than the bundle/);
  });

  it('refuses an upload faster than its throttled link and a worker fetching more than the scene', () => {
    refusedFor(checkChunkedUpload(good({ slowFullSeconds: 30 })), /the bundle's time on the link at 100 Mbit\/s is 77\.309 s, more than the throttled full PUT \(30 s\)/);
    refusedFor(checkChunkedUpload(good({ slowChunkedSeconds: 0.5 })), /the re-submit's bytes' time on the link at 100 Mbit\/s is .*, more than the throttled re-submit \(0\.5 s\)/);
    refusedFor(checkChunkedUpload(good({ workerFetched: 2048 * MiB })), /the worker fetched is .*, more than the worker's scene/);
  });

  it('refuses the figures as a whole through refuseImpossible', () => {
    expect(() => refuseImpossible('chunked-upload', checkChunkedUpload(good({ slowFullSeconds: 30 })))).toThrow(ImpossibleFigures);
  });
});
