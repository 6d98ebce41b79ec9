import type { BlenderRuntime } from './job-runner';
import type { RenderExecutor, RenderOutcome, RenderTask } from './render-executor';
import { startRender } from './blender/render';

/** Where the node's own Blender runs: its environment and scratch folder. */
export interface EmbeddedSetting {
  env: NodeJS.ProcessEnv;
  tempDir: string;
}

/** Renders with the node's own Blender, one process per job, as the node always has. */
export class EmbeddedExecutor implements RenderExecutor {
  readonly mode = 'embedded';

  constructor(
    private readonly blender: BlenderRuntime | null,
    private readonly setting: EmbeddedSetting,
  ) {}

  async render(task: RenderTask): Promise<RenderOutcome> {
    if (!this.blender) {
      return {
        kind: 'failed',
        reason: { name: 'BlenderNotFound', type: 'blender', message: 'This node has no Blender. Install Blender, or start the node with --blender <path> or BLENDER_PATH.' },
      };
    }
    const started = startRender({
      blenderPath: this.blender.path,
      scenePath: task.scenePath,
      sceneRoot: task.sceneRoot,
      plan: task.plan,
      env: this.setting.env,
      tempDir: this.setting.tempDir,
      signal: task.signal,
      onEvent: (ev) => {
        if (ev.event === 'ready') task.onStarted();
        else if (ev.event === 'frame') void task.onFrame({ frame: ev.frame, path: ev.path, seconds: ev.skipped ? 0 : ev.seconds });
      },
    });
    task.onPid(started.pid);
    const result = await started.done;
    if (task.signal.aborted) return { kind: 'stopped' };
    return { kind: 'finished', exitCode: result.exitCode, errorTail: result.stderrTail, ...(result.error ? { error: result.error } : {}) };
  }

  async cancel(): Promise<void> {}

  async analysisWarnings(): Promise<[]> {
    return [];
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
