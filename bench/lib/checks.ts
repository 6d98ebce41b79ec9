/**
 * Checks of the figures a benchmark is about to print: counts must add up (chunks x frames = frames
 * rendered, requests counted = requests made), durations can be neither negative nor longer than the
 * wall time they are part of. Each benchmark has a checker here that turns its figures into a list of
 * problems, one line each naming the figure and why; {@link refuseImpossible} stops the benchmark
 * with those lines instead of printing the figures. Everything here is pure.
 */
import { sizeLabel } from './options';

/** A benchmark's figures failed their checks: each line names a figure and why it cannot be right. */
export class ImpossibleFigures extends Error {
  override readonly name = 'ImpossibleFigures';
  constructor(
    readonly bench: string,
    readonly problems: readonly string[],
  ) {
    super(problems.map((problem) => `${bench}: figure refused: ${problem}`).join('\n'));
  }
}

/** Throws {@link ImpossibleFigures} when a checker found any problem. */
export function refuseImpossible(bench: string, problems: readonly string[]): void {
  if (problems.length > 0) throw new ImpossibleFigures(bench, problems);
}

const show = (value: number, unit: string) => `${Number.isFinite(value) ? String(Number(value.toFixed(3))) : String(value)}${unit === '' ? '' : ` ${unit}`}`;

/** Collects the problems of one set of figures. */
class Problems {
  readonly list: string[] = [];

  private number(figure: string, value: number, unit: string): boolean {
    if (Number.isFinite(value)) return true;
    this.list.push(`${figure} is ${show(value, unit)}: not a measured number`);
    return false;
  }

  /** A duration or an amount: at least 0. Null means "not measured" (no GNU time) and passes. */
  nonNegative(figure: string, value: number | null, unit: string, slack = 0): this {
    if (value !== null && this.number(figure, value, unit) && value < -slack) this.list.push(`${figure} is ${show(value, unit)}: it cannot be negative`);
    return this;
  }

  /** A duration something is divided by, or a rate: more than 0. */
  positive(figure: string, value: number, unit: string): this {
    if (this.number(figure, value, unit) && value <= 0) this.list.push(`${figure} is ${show(value, unit)}: it must be more than 0`);
    return this;
  }

  /** A part no larger than the whole it belongs to (`slack` covers clocks of millisecond resolution). */
  atMost(figure: string, value: number | null, limit: number, limitFigure: string, unit: string, slack = 0): this {
    if (value !== null && this.number(figure, value, unit) && this.number(limitFigure, limit, unit) && value > limit + slack) {
      this.list.push(`${figure} is ${show(value, unit)}, more than ${limitFigure} (${show(limit, unit)})`);
    }
    return this;
  }

  /** A count that must equal another one. */
  equal(figure: string, value: number, expected: number, expectedFigure: string): this {
    if (this.number(figure, value, '') && Math.abs(value - expected) > 1e-9 * Math.max(1, Math.abs(expected))) {
      this.list.push(`${figure} is ${show(value, '')}, but ${expectedFigure} is ${show(expected, '')}`);
    }
    return this;
  }

  /** Figures that must not decrease in the order given (a median, a percentile, a maximum). */
  ordered(figures: readonly (readonly [string, number])[], unit: string): this {
    for (let i = 1; i < figures.length; i++) {
      const [lowName, low] = figures[i - 1]!;
      const [highName, high] = figures[i]!;
      if (low > high) this.list.push(`${highName} is ${show(high, unit)}, less than ${lowName} (${show(low, unit)})`);
    }
    return this;
  }
}

/** Requests seen by the node, by kind (as bench/lib/request-counter.ts counts them). */
export interface CountedRequests {
  progress: number;
  jobReads: number;
  other: number;
  total: number;
}

function requestsAddUp(p: Problems, what: string, counted: CountedRequests, made: Omit<CountedRequests, 'total'>): void {
  p.equal(`${what}: requests counted at the node`, counted.total, counted.progress + counted.jobReads + counted.other, 'the sum of its kinds');
  p.equal(`${what}: GET /jobs/progress counted at the node`, counted.progress, made.progress, 'the number the client made');
  p.equal(`${what}: GET /jobs/{id} counted at the node`, counted.jobReads, made.jobReads, 'the number the client made');
  p.equal(`${what}: other requests counted at the node`, counted.other, made.other, 'the number the client made');
}

/** One measured upload and the medians of each size and client. */
export interface UploadFigures {
  runs: number;
  sizes: readonly number[];
  samples: readonly { client: string; size: number; transferSeconds: number; processSeconds: number; mibPerSecond: number; cpuSeconds: number | null; maxRssBytes: number | null; nodeCpuSeconds: number }[];
  summaries?: readonly { client: string; size: number; runs: number; mibPerSecond: number; transferSeconds: number; processSeconds: number }[];
}

export function checkUpload(f: UploadFigures): string[] {
  const p = new Problems();
  for (const s of f.samples) {
    const what = `${s.client} upload of ${sizeLabel(s.size)}`;
    p.positive(`${what}: transfer time`, s.transferSeconds, 's');
    p.atMost(`${what}: transfer time`, s.transferSeconds, s.processSeconds, "the client process's wall time, which it is part of", 's');
    p.positive(`${what}: throughput`, s.mibPerSecond, 'MiB/s');
    p.nonNegative(`${what}: CPU time`, s.cpuSeconds, 's').nonNegative(`${what}: peak RSS`, s.maxRssBytes, 'bytes').nonNegative(`${what}: node CPU time`, s.nodeCpuSeconds, 's');
  }
  if (f.summaries) {
    p.equal('medians printed', f.summaries.length, f.sizes.length * 2, 'sizes x 2 clients');
    for (const s of f.summaries) {
      const what = `${s.client} upload of ${sizeLabel(s.size)}`;
      p.equal(`${what}: runs in the median`, s.runs, f.runs, 'the runs asked for');
      p.positive(`${what}: median throughput`, s.mibPerSecond, 'MiB/s');
      p.atMost(`${what}: median transfer time`, s.transferSeconds, s.processSeconds, 'the median process wall time', 's');
    }
  }
  return p.list;
}

/** One measured download of every file by one client, and the medians. */
export interface DownloadFigures {
  files: number;
  runs: number;
  variants: readonly string[];
  samples: readonly { variant: string; wallSeconds: number; innerSeconds: number | null; cpuSeconds: number | null; nodeCpuSeconds: number; requests: number; requestsMade: number }[];
  summaries?: readonly { variant: string; wallSeconds: number; innerSeconds: number | null }[];
}

export function checkDownload(f: DownloadFigures): string[] {
  const p = new Problems();
  for (const s of f.samples) {
    p.positive(`${s.variant}: wall time`, s.wallSeconds, 's');
    p.nonNegative(`${s.variant}: time inside the process`, s.innerSeconds, 's').atMost(`${s.variant}: time inside the process`, s.innerSeconds, s.wallSeconds, "the process's wall time", 's');
    p.nonNegative(`${s.variant}: CPU time`, s.cpuSeconds, 's').nonNegative(`${s.variant}: node CPU time`, s.nodeCpuSeconds, 's');
    p.equal(`${s.variant}: requests counted at the node`, s.requests, s.requestsMade, `the requests it makes for ${f.files} files`);
  }
  if (f.summaries) {
    for (const variant of f.variants) {
      p.equal(`${variant}: runs in the median`, f.samples.filter((s) => s.variant === variant).length, f.runs, 'the runs asked for');
    }
    for (const s of f.summaries) {
      p.positive(`${s.variant}: median wall time`, s.wallSeconds, 's');
      p.atMost(`${s.variant}: median time inside the process`, s.innerSeconds, s.wallSeconds, 'the median wall time', 's');
    }
  }
  return p.list;
}

/** The tracker benchmark: requests counted at the node and made by each poller. */
export interface TrackerFigures {
  ticks: number;
  fixedTicks: readonly { poller: string; counts: CountedRequests; made: Omit<CountedRequests, 'total'>; firstTick: number; laterPerTick: number; maxPerTick: number; medianTickMs: number }[];
  realtime: readonly { poller: string; seconds: number; plannedSeconds: number; counts: CountedRequests; made: Omit<CountedRequests, 'total'> }[];
}

export function checkTracker(f: TrackerFigures): string[] {
  const p = new Problems();
  for (const r of f.fixedTicks) {
    const what = `${r.poller}, ${f.ticks} ticks`;
    requestsAddUp(p, what, r.counts, r.made);
    p.equal(`${what}: first tick + later ticks`, r.firstTick + r.laterPerTick * (f.ticks - 1), r.counts.total, 'the requests counted');
    p.ordered([[`${what}: requests per tick after the first`, r.laterPerTick], [`${what}: most requests in a tick`, r.maxPerTick]], '');
    p.nonNegative(`${what}: median tick time`, r.medianTickMs, 'ms');
  }
  for (const r of f.realtime) {
    const what = `${r.poller}, real time`;
    requestsAddUp(p, what, r.counts, r.made);
    p.positive(`${what}: measured time`, r.seconds, 's');
    p.atMost(`${what}: time asked for`, r.plannedSeconds, r.seconds, 'the time measured', 's', 0.01);
  }
  return p.list;
}

/** The queue-sync benchmark: one simulated run per scenario and poller. */
export interface QueueSyncFigures {
  minutes: number;
  newJobAtS: number;
  results: readonly { scenario: string; poller: string; counts: CountedRequests; made: number; newJobSeenAfterS: number | null; completionSeenAfterS: number | null }[];
}

export function checkQueueSync(f: QueueSyncFigures): string[] {
  const p = new Problems();
  for (const r of f.results) {
    const what = `${r.scenario}, ${r.poller}`;
    p.equal(`${what}: requests counted at the node`, r.counts.total, r.counts.progress + r.counts.jobReads + r.counts.other, 'the sum of its kinds');
    p.equal(`${what}: requests counted at the node`, r.counts.total, r.made, 'the number the client made');
    p.nonNegative(`${what}: new job seen after`, r.newJobSeenAfterS, 's').atMost(`${what}: new job seen after`, r.newJobSeenAfterS, f.minutes * 60 - f.newJobAtS, 'the time left in the run after it was added', 's');
    p.nonNegative(`${what}: completion seen after`, r.completionSeenAfterS, 's').atMost(`${what}: completion seen after`, r.completionSeenAfterS, f.minutes * 60, 'the length of the run', 's');
  }
  return p.list;
}

/** The jobs-list benchmark: one load run per query and index. */
export interface JobsListFigures {
  results: readonly {
    label: string;
    index: string;
    requests: number;
    latencies: number;
    probes: number;
    counted: number;
    clientSeconds: number;
    wallSeconds: number;
    requestsPerSecond: number;
    medianMs: number;
    p99Ms: number;
    healthzMedianMs: number;
    healthzMaxMs: number;
  }[];
}

export function checkJobsList(f: JobsListFigures): string[] {
  const p = new Problems();
  for (const r of f.results) {
    const what = `${r.label} (${r.index})`;
    p.equal(`${what}: latencies measured`, r.latencies, r.requests, 'the requests the client made');
    p.equal(`${what}: requests counted at the node`, r.counted, r.requests + r.probes, 'the requests the client made (GET /jobs and /healthz)');
    p.positive(`${what}: load time`, r.clientSeconds, 's').atMost(`${what}: load time`, r.clientSeconds, r.wallSeconds, "the client process's wall time", 's');
    p.positive(`${what}: requests per second`, r.requestsPerSecond, 'req/s');
    p.nonNegative(`${what}: median latency`, r.medianMs, 'ms').ordered([[`${what}: median latency`, r.medianMs], [`${what}: p99 latency`, r.p99Ms]], 'ms');
    p.atMost(`${what}: p99 latency`, r.p99Ms, r.clientSeconds * 1000, 'the load time', 'ms');
    p.nonNegative(`${what}: /healthz median latency`, r.healthzMedianMs, 'ms').ordered([[`${what}: /healthz median latency`, r.healthzMedianMs], [`${what}: /healthz max latency`, r.healthzMaxMs]], 'ms');
    p.atMost(`${what}: /healthz max latency`, r.healthzMaxMs, r.clientSeconds * 1000, 'the load time', 'ms');
  }
  return p.list;
}

/** The node-flow benchmark: bare Blender runs and the node's whole flow, by phase. */
export interface NodeFlowFigures {
  frames: number;
  bare: readonly { ms: number; frames: number }[];
  flows: readonly { label: string; flow: number; uploadValidate: number; renderFinalize: number; download: number; framesDownloaded: number }[];
}

export function checkNodeFlow(f: NodeFlowFigures): string[] {
  const p = new Problems();
  for (const b of f.bare) {
    p.positive('bare Blender: wall time', b.ms, 'ms').equal('bare Blender: frames written', b.frames, f.frames, 'the frames of the scene');
  }
  for (const r of f.flows) {
    p.positive(`${r.label}: whole flow`, r.flow, 'ms');
    for (const phase of ['uploadValidate', 'renderFinalize', 'download'] as const) {
      p.nonNegative(`${r.label}: ${phase}`, r[phase], 'ms').atMost(`${r.label}: ${phase}`, r[phase], r.flow, 'the whole flow it is part of', 'ms');
    }
    p.atMost(`${r.label}: sum of the phases`, r.uploadValidate + r.renderFinalize + r.download, r.flow, 'the whole flow', 'ms', 1e-6);
    p.equal(`${r.label}: frames downloaded`, r.framesDownloaded, f.frames, 'the frames of the scene');
  }
  return p.list;
}

/** The frame-previews benchmark: renders with and without previews. */
export interface FramePreviewsFigures {
  frames: number;
  renders: readonly { previews: boolean; ms: number; framesWritten: number; previewsWritten: number }[];
}

export function checkFramePreviews(f: FramePreviewsFigures): string[] {
  const p = new Problems();
  for (const r of f.renders) {
    const what = r.previews ? 'render with previews' : 'render without previews';
    p.positive(`${what}: wall time`, r.ms, 'ms');
    p.equal(`${what}: frames written`, r.framesWritten, f.frames, 'the frames asked for');
    p.equal(`${what}: previews written`, r.previewsWritten, r.previews ? f.frames : 0, r.previews ? 'the frames asked for' : 'none asked for');
  }
  return p.list;
}

/** The serve-file benchmark: one curl fetching every file from one route. */
export interface ServeFileFigures {
  files: number;
  fetches: readonly { route: string; range: boolean; seconds: number; requests: number; answered: number }[];
}

export function checkServeFile(f: ServeFileFigures): string[] {
  const p = new Problems();
  for (const r of f.fetches) {
    const what = `${r.route}${r.range ? ' (Range)' : ''}`;
    p.positive(`${what}: time`, r.seconds, 's');
    p.equal(`${what}: requests counted at the server`, r.requests, f.files, 'the files curl fetched');
    p.equal(`${what}: answers ${r.range ? '206' : '200'}`, r.answered, f.files, 'the files curl fetched');
  }
  return p.list;
}

/** The trace benchmark: one row per scene. */
export interface TraceFigures {
  runs: number;
  rows: readonly { scene: string; blenderSeconds: readonly number[]; processSeconds: readonly number[]; firstTraceSeconds: readonly number[]; warmTraceSeconds: readonly number[]; blends: number; dependencies: number }[];
}

export function checkTrace(f: TraceFigures): string[] {
  const p = new Problems();
  for (const row of f.rows) {
    for (const key of ['blenderSeconds', 'processSeconds', 'firstTraceSeconds', 'warmTraceSeconds'] as const) {
      p.equal(`${row.scene}: ${key} measured`, row[key].length, f.runs, 'the runs asked for');
      for (const value of row[key]) p.positive(`${row.scene}: ${key}`, value, 's');
    }
    row.processSeconds.forEach((process, i) => {
      p.atMost(`${row.scene}: first trace of run ${i + 1}`, row.firstTraceSeconds[i] ?? null, process, "the trace process's wall time, which it is part of", 's');
      p.atMost(`${row.scene}: warm trace of run ${i + 1}`, row.warmTraceSeconds[i] ?? null, process, "the trace process's wall time, which it is part of", 's');
    });
    p.positive(`${row.scene}: .blend files traced`, row.blends, '').nonNegative(`${row.scene}: dependencies`, row.dependencies, '');
  }
  return p.list;
}

/** The pack benchmark: one sample per scene, tool and run, and the medians per scene. */
export interface PackFigures {
  runs: number;
  cases: readonly string[];
  samples: readonly { tool: string; case: string; size: number; seconds: number; mibPerSecond: number; cpuSeconds: number | null; zipBytes: number }[];
  summary?: readonly { case: string; ratio: number }[];
}

export function checkPack(f: PackFigures): string[] {
  const p = new Problems();
  for (const s of f.samples) {
    const what = `${s.tool}, ${s.case}`;
    p.positive(`${what}: wall time`, s.seconds, 's').positive(`${what}: throughput`, s.mibPerSecond, 'MiB/s').nonNegative(`${what}: CPU time`, s.cpuSeconds, 's');
    p.atMost(`${what}: data packed (stored, random bytes)`, s.size, s.zipBytes, 'the bundle that holds it', 'bytes');
  }
  if (f.summary) {
    for (const scene of f.cases) {
      for (const tool of ['renderdrop', 'zip']) {
        p.equal(`${tool}, ${scene}: runs in the median`, f.samples.filter((s) => s.case === scene && s.tool === tool).length, f.runs, 'the runs asked for');
      }
    }
    for (const s of f.summary) p.positive(`${s.case}: ratio`, s.ratio, '');
  }
  return p.list;
}

/** The startup benchmark: the samples of each command. */
export interface StartupFigures {
  runs: number;
  rows: readonly { label: string; samples: readonly number[]; wallSeconds: number; ratio: number }[];
}

export function checkStartup(f: StartupFigures): string[] {
  const p = new Problems();
  for (const row of f.rows) {
    p.equal(`${row.label}: runs measured`, row.samples.length, f.runs, 'the runs asked for');
    for (const value of row.samples) p.positive(`${row.label}: wall time`, value, 's');
    p.positive(`${row.label}: median wall time`, row.wallSeconds, 's').positive(`${row.label}: ratio to node -e 0`, row.ratio, '');
  }
  return p.list;
}

/** The ui-queue benchmark: first paint and scroll frames of each page load. */
export interface UiQueueFigures {
  frames: number;
  samples: readonly { page: string; firstPaintMs: number; framesMeasured: number; frameMedianMs: number; frameP95Ms: number; frameMaxMs: number; slowFrames: number }[];
}

export function checkUiQueue(f: UiQueueFigures): string[] {
  const p = new Problems();
  for (const s of f.samples) {
    p.positive(`${s.page}: first paint`, s.firstPaintMs, 'ms');
    p.equal(`${s.page}: scroll frames measured`, s.framesMeasured, f.frames - 1, 'the frames scrolled after the first');
    p.nonNegative(`${s.page}: median frame`, s.frameMedianMs, 'ms').ordered([[`${s.page}: median frame`, s.frameMedianMs], [`${s.page}: p95 frame`, s.frameP95Ms], [`${s.page}: slowest frame`, s.frameMaxMs]], 'ms');
    p.nonNegative(`${s.page}: frames over 50 ms`, s.slowFrames, '').atMost(`${s.page}: frames over 50 ms`, s.slowFrames, s.framesMeasured, 'the frames measured', '');
  }
  return p.list;
}

/** One chunk of a distributed render: the node's record of it and its worker's report (times in ms). */
export interface ChunkFigures {
  index: number;
  frames: number;
  /** Frames the worker delivered that the node counted. */
  rendered: number;
  /** From the render request (or the worker's previous chunk) to the worker taking the chunk. */
  pickupMs: number;
  /** From taking the chunk to starting Blender (status, scene, scratch folder). */
  prepareMs: number;
  /** Blender's process, start to exit. */
  blenderMs: number;
  /** From Blender's exit to the chunk reported done (the last uploads). */
  afterMs: number;
  /** Blender's own time of the chunk's frames, from the node's record of them. */
  frameMs: number;
  /** Blender's start-up and scene load: its process time beyond its frames' time. */
  startupMs: number;
  /** Pick-up, preparation and the uploads after Blender. */
  schedulingMs: number;
}

/** The distributed benchmark: each render, the chunks of the distributed ones, and the ratio. */
export interface DistributedFigures {
  frames: number;
  runs: readonly {
    mode: string;
    /** From the render request to `completed`. */
    ms: number;
    /** Blenders rendering at once: 1 embedded, the workers distributed. */
    parallel: number;
    frameSeconds: number;
    framesRecorded: number;
    /** Chunks in the node's record of the job (distributed only). */
    chunkRecords?: number;
    chunks?: readonly ChunkFigures[];
    /** From the render request to the last chunk reported done (distributed only). */
    workMs?: number;
    redisCommands?: number;
  }[];
  ratio?: number;
}

/** Clock resolution between the bench process and the workers (Date.now, whole milliseconds). */
const CLOCK_SLACK_MS = 2;

function checkChunks(p: Problems, what: string, run: DistributedFigures['runs'][number]): void {
  const chunks = run.chunks ?? [];
  const workMs = run.workMs ?? Number.NaN;
  const wall = 'the time from the render request to the last chunk done';
  p.equal(`${what}: chunks with a worker's report`, chunks.length, run.chunkRecords ?? 0, "the chunks in the node's record of the job");
  p.equal(`${what}: frames of its chunks`, chunks.reduce((sum, c) => sum + c.frames, 0), run.framesRecorded, 'the frames the node recorded');
  p.equal(`${what}: frames its workers delivered`, chunks.reduce((sum, c) => sum + c.rendered, 0), run.framesRecorded, 'the frames the node recorded');
  for (const c of chunks) {
    const chunk = `${what}, chunk ${c.index + 1}`;
    p.nonNegative(`${chunk}: queue pick-up`, c.pickupMs, 'ms', CLOCK_SLACK_MS).nonNegative(`${chunk}: preparation before Blender`, c.prepareMs, 'ms');
    p.nonNegative(`${chunk}: Blender's time`, c.blenderMs, 'ms').nonNegative(`${chunk}: uploads after Blender`, c.afterMs, 'ms');
    p.atMost(`${chunk}: Blender's time`, c.blenderMs, workMs, wall, 'ms', CLOCK_SLACK_MS);
    p.nonNegative(`${chunk}: Blender's time of its frames`, c.frameMs, 'ms');
    p.nonNegative(`${chunk}: Blender start-up and scene load`, c.startupMs, 'ms');
    p.atMost(`${chunk}: scheduling overhead`, c.schedulingMs, workMs, wall, 'ms', CLOCK_SLACK_MS);
  }
}

export function checkDistributed(f: DistributedFigures): string[] {
  const p = new Problems();
  f.runs.forEach((run, i) => {
    const what = `run ${i + 1} ${run.mode}`;
    p.positive(`${what}: wall time`, run.ms, 'ms');
    p.equal(`${what}: frames recorded`, run.framesRecorded, f.frames, 'the frames of the scene');
    p.nonNegative(`${what}: Blender's time of its frames`, run.frameSeconds * 1000, 'ms');
    p.atMost(`${what}: Blender's time of its frames`, run.frameSeconds * 1000, run.ms * run.parallel, `the wall time x ${run.parallel} Blender(s) at once`, 'ms');
    if (run.chunks !== undefined || run.chunkRecords !== undefined) checkChunks(p, what, run);
    if (run.redisCommands !== undefined) p.nonNegative(`${what}: Redis commands beyond the idle background`, run.redisCommands, '');
  });
  if (f.ratio !== undefined) p.positive('distributed / embedded', f.ratio, '');
  return p.list;
}

/** The scheduler benchmark: chunks handed out with one job waiting and with many, by `workers` workers at once. */
export interface SchedulerFigures {
  workers: number;
  /** Chunks each worker takes in one scenario of one run. */
  takesPerWorker: number;
  runs: number;
  scenarios: readonly {
    label: string;
    jobs: number;
    chunksPerJob: number;
    /** Chunks BullMQ held in its prioritized set before each round. */
    chunksQueued: readonly number[];
    /** Chunks the workers took, over every run, and takes that found none. */
    taken: number;
    empty: number;
    /** The node's choices, and those that picked a render of the highest waiting priority. */
    picks: number;
    picksOfTop: number;
    /** Rounds where a chunk taken had a lower priority than one left waiting. */
    orderBreaks: number;
    /** Medians per chunk (µs): the node's choice, a worker's take, both. */
    pickUs: number;
    takeUs: number;
    perChunkUs: number;
  }[];
  /** Per chunk with the most jobs waiting / with the fewest. */
  ratio?: number;
}

export function checkScheduler(f: SchedulerFigures): string[] {
  const p = new Problems();
  for (const s of f.scenarios) {
    const what = s.label;
    for (const queued of s.chunksQueued) p.equal(`${what}: chunks waiting in BullMQ before a round`, queued, s.jobs * s.chunksPerJob, 'jobs x chunks per job');
    p.equal(`${what}: chunks taken`, s.taken, f.workers * f.takesPerWorker * f.runs, 'workers x takes per worker x runs');
    p.equal(`${what}: takes that found no chunk`, s.empty, 0, 'none (the queue never runs dry)');
    p.equal(`${what}: choices of a render of the highest waiting priority`, s.picksOfTop, s.picks, 'every choice');
    p.equal(`${what}: rounds where a lower priority was taken before a higher one`, s.orderBreaks, 0, 'none');
    p.positive(`${what}: choice per chunk`, s.pickUs, 'µs').positive(`${what}: take per chunk`, s.takeUs, 'µs');
    p.atMost(`${what}: choice + take per chunk`, s.perChunkUs, s.pickUs + s.takeUs, 'the sum of its parts', 'µs', 1e-6);
    p.atMost(`${what}: the sum of its parts`, s.pickUs + s.takeUs, s.perChunkUs, 'choice + take per chunk', 'µs', 1e-6);
  }
  if (f.ratio !== undefined) p.positive('per chunk, many jobs / one job', f.ratio, '');
  return p.list;
}

/** The frame-order benchmark: each render of the same shot, spread or in order, embedded or on workers. */
export interface FrameOrderFigures {
  frames: number;
  /** CPUs of the machine: Blender's CPU time is at most its wall time on all of them. */
  cpus: number;
  runs: readonly {
    mode: string;
    order: string;
    /** From the render request to `completed`. */
    ms: number;
    /** From the render request to the last frame written (the job's render time). */
    renderMs: number;
    framesRecorded: number;
    /** Each frame's time after the render request when the node counted it, in ms. */
    writtenAtMs: readonly number[];
    /** CPU time (user + system) of the Blender processes of the render, in seconds. */
    blenderCpuSeconds: number;
    /** Frames on disk after an eighth of the render time. */
    doneAtEighth: number;
    /** The widest stretch of the shot with no frame on disk then, as a share of the shot (0-1). */
    widestGapAtEighth: number;
  }[];
  ratios?: Readonly<Record<string, number>>;
}

/** Checks the frame-order figures: every frame once, times inside the render, shares between 0 and 1. */
export function checkFrameOrder(f: FrameOrderFigures): string[] {
  const p = new Problems();
  f.runs.forEach((run, i) => {
    const what = `run ${i + 1} ${run.mode} ${run.order}`;
    p.positive(`${what}: wall time`, run.ms, 'ms').positive(`${what}: render time`, run.renderMs, 'ms');
    p.atMost(`${what}: render time`, run.renderMs, run.ms, 'the wall time', 'ms', CLOCK_SLACK_MS);
    p.equal(`${what}: frames recorded`, run.framesRecorded, f.frames, 'the frames of the shot');
    p.positive(`${what}: Blender's CPU time`, run.blenderCpuSeconds, 's').atMost(`${what}: Blender's CPU time`, run.blenderCpuSeconds, (run.ms / 1000) * f.cpus, `the wall time on ${f.cpus} CPUs`, 's', 0.05);
    p.equal(`${what}: frame times`, run.writtenAtMs.length, f.frames, 'the frames of the shot');
    for (const at of run.writtenAtMs) p.nonNegative(`${what}: a frame's time after the request`, at, 'ms', CLOCK_SLACK_MS).atMost(`${what}: a frame's time after the request`, at, run.renderMs, 'the render time', 'ms', CLOCK_SLACK_MS);
    p.nonNegative(`${what}: frames on disk at an eighth`, run.doneAtEighth, '').atMost(`${what}: frames on disk at an eighth`, run.doneAtEighth, f.frames, 'the frames of the shot', '');
    p.nonNegative(`${what}: widest gap at an eighth`, run.widestGapAtEighth, '').atMost(`${what}: widest gap at an eighth`, run.widestGapAtEighth, 1, 'the whole shot', '');
  });
  for (const [name, ratio] of Object.entries(f.ratios ?? {})) p.positive(name, ratio, '');
  return p.list;
}

/** The estimate benchmark: per scene, the node's estimate before Start, the render it took, its sample render and the time left at a quarter. */
export interface EstimateFigures {
  scenes: readonly {
    name: string;
    /** The estimate given when the render was started, and its range, in s. */
    estimateSeconds: number;
    low: number;
    high: number;
    /** Render time taken (from the start of rendering to the last frame), in s. */
    tookSeconds: number;
    /** Wall time of the sample render (from validated to the estimate), in s. */
    sampleSeconds: number;
    /** The time left the node said nearest a quarter of the render, and the time that was really left then, in s; null when not read. */
    leftAtQuarter: { said: number; real: number; atSeconds: number } | null;
  }[];
}

/** Checks the estimate figures: positive times, a range around its estimate, a quarter inside the render. */
export function checkEstimate(f: EstimateFigures): string[] {
  const p = new Problems();
  for (const s of f.scenes) {
    p.positive(`${s.name}: estimate`, s.estimateSeconds, 's').positive(`${s.name}: render time`, s.tookSeconds, 's').positive(`${s.name}: sample render`, s.sampleSeconds, 's');
    p.ordered([[`${s.name}: low`, s.low], [`${s.name}: estimate`, s.estimateSeconds], [`${s.name}: high`, s.high]], 's');
    if (s.leftAtQuarter) {
      p.nonNegative(`${s.name}: time left said`, s.leftAtQuarter.said, 's').nonNegative(`${s.name}: time really left`, s.leftAtQuarter.real, 's');
      p.atMost(`${s.name}: time of the reading`, s.leftAtQuarter.atSeconds, s.tookSeconds, 'the render time', 's');
    }
  }
  return p.list;
}

/** The chunked-upload benchmark: first submissions of each kind, the re-submits' bytes, the throttled re-submit and a worker's fetch. */
export interface ChunkedUploadFigures {
  /** First submissions of each kind asked for, and the throttled link's speed in Mbit/s. */
  runs: number;
  mbit: number;
  /** Pack + upload times of each first submission, in s: zip + PUT, and Renderdrop's chunked path. */
  firstZipSeconds: readonly number[];
  firstChunkedSeconds: readonly number[];
  bundleBytes: number;
  /** Bytes sent and reused by the re-submit after Blender re-saved the .blend with one object moved. */
  movedSent: number;
  movedReused: number;
  /** The repainted texture's size, and the bytes sent and reused by the re-submit after it. */
  textureBytes: number;
  repaintSent: number;
  repaintReused: number;
  /** The re-submit through the throttled link in chunks, and the full PUT of the same bundle, in s; bytes the former sent. */
  slowFullSeconds: number;
  slowChunkedSeconds: number;
  slowChunkedSent: number;
  /** A render worker's second fetch: the scene's size and the bytes it fetched. */
  workerSceneBytes: number;
  workerFetched: number;
}

/** Checks the chunked-upload figures: every run measured, bytes that add up to a bundle, no upload faster than its throttled link. */
export function checkChunkedUpload(f: ChunkedUploadFigures): string[] {
  const p = new Problems();
  p.equal('first submissions by zip + PUT', f.firstZipSeconds.length, f.runs, 'the runs asked for').equal('first submissions in chunks', f.firstChunkedSeconds.length, f.runs, 'the runs asked for');
  for (const s of f.firstZipSeconds) p.positive('a first zip + PUT', s, 's');
  for (const s of f.firstChunkedSeconds) p.positive('a first submission in chunks', s, 's');
  p.positive('the bundle', f.bundleBytes, 'bytes').positive('the texture', f.textureBytes, 'bytes').atMost('the texture', f.textureBytes, f.bundleBytes, 'the bundle', 'bytes');
  const bundle = f.bundleBytes * 1.01;
  for (const [name, sent, reused] of [['re-saved', f.movedSent, f.movedReused], ['repainted', f.repaintSent, f.repaintReused]] as const) {
    p.nonNegative(`${name}: bytes sent`, sent, 'bytes').nonNegative(`${name}: bytes reused`, reused, 'bytes').atMost(`${name}: bytes reused`, reused, bundle, 'the bundle', 'bytes');
    p.atMost(`${name}: bytes sent`, sent, bundle, 'the bundle', 'bytes');
    if (Number.isFinite(sent + reused) && sent + reused < f.bundleBytes * 0.5) p.list.push(`${name}: ${sent} bytes sent and ${reused} reused cannot make a ${f.bundleBytes}-byte bundle`);
  }
  p.positive('the throttled link', f.mbit, 'Mbit/s').positive('the throttled full PUT', f.slowFullSeconds, 's').positive('the throttled re-submit', f.slowChunkedSeconds, 's');
  p.nonNegative('the throttled re-submit: bytes sent', f.slowChunkedSent, 'bytes').atMost('the throttled re-submit: bytes sent', f.slowChunkedSent, bundle, 'the bundle', 'bytes');
  const linkSeconds = (bytes: number) => (bytes * 8) / (f.mbit * 1e6);
  p.atMost(`the bundle's time on the link at ${f.mbit} Mbit/s`, 0.9 * linkSeconds(f.bundleBytes), f.slowFullSeconds, 'the throttled full PUT', 's');
  p.atMost(`the re-submit's bytes' time on the link at ${f.mbit} Mbit/s`, 0.9 * linkSeconds(f.slowChunkedSent), f.slowChunkedSeconds, 'the throttled re-submit', 's');
  p.positive("the worker's scene", f.workerSceneBytes, 'bytes').nonNegative('the worker fetched', f.workerFetched, 'bytes').atMost('the worker fetched', f.workerFetched, f.workerSceneBytes * 1.01, "the worker's scene", 'bytes');
  return p.list;
}
