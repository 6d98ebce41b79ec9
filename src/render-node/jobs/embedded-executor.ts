import type { BlenderRuntime } from './blender-runtime';
import type { ExecutorOutcome, RenderExecutor, RenderTask } from './render-executor';
import { startRender } from '../blender';
import type { Renderer } from '../plan';

/** Where the node's own Blender runs: its environment and scratch folder. */
export interface EmbeddedSetting {
  env: NodeJS.ProcessEnv;
  tempDir: string;
  /** Blender threads per render, or null for all cores. */
  threads?: number | null;
}

/** Renders with the node's own Blender, one process per job, as the node always has. */
export class EmbeddedExecutor implements RenderExecutor {
  readonly mode = 'embedded';
  /** Blender threads of the renders it starts from now on, or null for all cores. */
  threads: number | null;

  constructor(
    private readonly blender: BlenderRuntime | null,
    private readonly setting: EmbeddedSetting,
  ) {
    this.threads = setting.threads ?? null;
  }

  async render(task: RenderTask): Promise<ExecutorOutcome> {
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
      plan: this.threads === null ? task.plan : { ...task.plan, threads: this.threads },
      env: this.setting.env,
      tempDir: this.setting.tempDir,
      signal: task.signal,
      onLine: task.onLog,
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

  async renderers(): Promise<Renderer[]> {
    return this.blender ? [{ version: this.blender.version, eevee: this.blender.eeveeUsable }] : [];
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
