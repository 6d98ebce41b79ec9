import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FailedReason } from '../../../src/shared/api';
import type { ExecutorOutcome, RenderExecutor, RenderTask } from '../../../src/render-node/jobs/render-executor';
import { expectedFrameNames } from '../../../src/render-node/frames/frame-names';

/** A whole 1x1 PNG: what a frame file holds. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * What the fake does with a job's next render:
 * - `all-frames`: writes and reports every frame not yet written, then ends like a Blender that exits 0;
 * - `manual`: waits for the test to drive it through {@link FakeRender};
 * - `fail`: ends at once with the reason, as an executor that cannot render;
 * - `disk-full`: writes `framesFirst` frames, then hits a full disk, reported like Blender reports it
 *   (`reported`) or thrown from the executor (`thrown`).
 */
export type FakeScript =
  | { kind: 'all-frames' }
  | { kind: 'manual' }
  | { kind: 'fail'; reason: FailedReason }
  | { kind: 'disk-full'; framesFirst?: number; how?: 'reported' | 'thrown' };

/** An error as Node reports a write on a full disk. */
export function diskFullError(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/** One render the fake is running, driven by the test. */
export class FakeRender {
  private next = 0;
  private end: ((outcome: ExecutorOutcome) => void) | null = null;
  readonly outcome: Promise<ExecutorOutcome>;

  constructor(readonly task: RenderTask) {
    this.outcome = new Promise((resolve) => {
      this.end = resolve;
      if (task.signal.aborted) resolve({ kind: 'stopped' });
      task.signal.addEventListener('abort', () => resolve({ kind: 'stopped' }), { once: true });
    });
  }

  get jobId(): string {
    return this.task.job.id;
  }

  /** Whether the render was told to stop (cancel, node stop, time limit, yield). */
  get aborted(): boolean {
    return this.task.signal.aborted;
  }

  /** Frames of the plan this render has not written yet. */
  get framesLeft(): number[] {
    return this.task.plan.frames.slice(this.next);
  }

  /** Write the next frame's file and report it; resolves whether the runner counted it. */
  async frame(seconds = 0.25): Promise<boolean> {
    const frame = this.task.plan.frames[this.next++];
    if (frame === undefined) throw new Error(`job ${this.jobId} has no frame left to write`);
    const name = expectedFrameNames(this.task.plan.fileNamePattern, this.task.plan.outputFormat, frame)[0]!;
    const path = join(this.task.plan.outputDir, name);
    await mkdir(this.task.plan.outputDir, { recursive: true });
    await writeFile(path, PNG);
    return this.task.onFrame({ frame, path, seconds });
  }

  /** Write every frame left, then end like a Blender that exited 0. */
  async complete(): Promise<void> {
    while (this.framesLeft.length > 0 && !this.aborted) await this.frame();
    this.finish(0);
  }

  /** End the render like a Blender process that exited. */
  finish(exitCode = 0, error?: string): void {
    this.end?.({ kind: 'finished', exitCode, errorTail: error ?? '', ...(error ? { error } : {}) });
  }

  /** End the render with an outcome of the executor's own. */
  settle(outcome: ExecutorOutcome): void {
    this.end?.(outcome);
  }
}

/**
 * A {@link RenderExecutor} for unit tests of the runner: no Blender, no process. Each job's renders
 * follow a script ({@link FakeScript}, `all-frames` unless told otherwise); the fake records which
 * renders started and which jobs were canceled, and hands `manual` renders to the test.
 */
export class FakeExecutor implements RenderExecutor {
  /** Job ids in the order their renders started (a job resumed after giving way appears again). */
  readonly started: string[] = [];
  /** Job ids passed to `cancel`. */
  readonly canceled: string[] = [];
  private readonly scripts = new Map<string, FakeScript[]>();
  private readonly live = new Map<string, FakeRender>();

  constructor(readonly mode: 'embedded' | 'distributed' = 'embedded') {}

  /** Queue what the job's next renders do, one script per render; the last one repeats. */
  script(jobId: string, ...scripts: FakeScript[]): void {
    this.scripts.set(jobId, scripts);
  }

  /** The job's render now running, if any. */
  running(jobId: string): FakeRender | undefined {
    return this.live.get(jobId);
  }

  /** Ids of the jobs whose renders are running now. */
  runningJobs(): string[] {
    return [...this.live.keys()];
  }

  /** Resolves with the job's render once it runs. */
  async whenRunning(jobId: string, timeoutMs = 2000): Promise<FakeRender> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const render = this.live.get(jobId);
      if (render) return render;
      if (Date.now() > deadline) throw new Error(`the render of job ${jobId} did not start (running: ${this.runningJobs().join(', ') || 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  async render(task: RenderTask): Promise<ExecutorOutcome> {
    const jobId = task.job.id;
    const queued = this.scripts.get(jobId) ?? [];
    const script = (queued.length > 1 ? queued.shift() : queued[0]) ?? { kind: 'all-frames' };
    const render = new FakeRender(task);
    this.started.push(jobId);
    this.live.set(jobId, render);
    try {
      return await this.play(render, script);
    } finally {
      this.live.delete(jobId);
    }
  }

  private async play(render: FakeRender, script: FakeScript): Promise<ExecutorOutcome> {
    switch (script.kind) {
      case 'manual':
        return render.outcome;
      case 'fail':
        return { kind: 'failed', reason: script.reason };
      case 'all-frames':
        render.task.onStarted();
        await render.complete();
        return render.outcome;
      case 'disk-full':
        render.task.onStarted();
        for (let i = 0; i < (script.framesFirst ?? 0); i++) await render.frame();
        if (script.how === 'thrown') throw diskFullError();
        render.finish(1, 'Error: ENOSPC: no space left on device, write');
        return render.outcome;
    }
  }

  async cancel(jobId: string): Promise<void> {
    this.canceled.push(jobId);
  }

  async renderers(): Promise<null> {
    return null;
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
