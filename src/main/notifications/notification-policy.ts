import { failedStepTitle, type FailedStep } from '../../shared/contract';
import { countOf } from '../../shared/text';

/** A finished render as a notification describes it. */
export interface FinishedRender {
  jobId: string;
  fileName: string;
  frames: number;
}

/** A failed render and why. */
export interface FailedRender {
  jobId: string;
  fileName: string;
  reason: string;
  /** The step it failed at, when known (the title names it: "Validation failed"). */
  step?: FailedStep | null;
}

/** What a click on a native notification leads to. */
export type NoteTarget = { kind: 'job'; jobId: string } | { kind: 'window' };

/** One native notification to show. */
export interface NativeNote {
  title: string;
  body: string;
  target: NoteTarget;
  urgent: boolean;
}

/** What the policy needs from the outside world. */
export interface NotificationPolicyDeps {
  /** Whether the app window has focus (the in-app notification suffices then). */
  isFocused(): boolean;
  show(note: NativeNote): void;
  /** Runs `run` once after `ms`; answers the function that cancels it. */
  schedule(run: () => void, ms: number): () => void;
  /** How long completions are gathered into one summary (default 4 s). */
  digestMs?: number;
}

/** Default time completions are gathered for. */
export const DIGEST_MS = 4000;

function listNames(names: string[]): string {
  if (names.length <= 3) return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

/**
 * When to show native notifications: never while the window has focus; a failure at once, with
 * its reason; completions gathered for a few seconds so several close together become one summary.
 */
export class NotificationPolicy {
  readonly #deps: NotificationPolicyDeps;
  #pending: FinishedRender[] = [];
  #cancel: (() => void) | null = null;

  constructor(deps: NotificationPolicyDeps) {
    this.#deps = deps;
  }

  completed(render: FinishedRender): void {
    if (this.#deps.isFocused()) return;
    this.#pending.push(render);
    this.#cancel ??= this.#deps.schedule(() => this.#flush(), this.#deps.digestMs ?? DIGEST_MS);
  }

  failed(render: FailedRender): void {
    if (this.#deps.isFocused()) return;
    this.#deps.show({ title: failedStepTitle(render.step ?? 'render'), body: `${render.fileName}: ${render.reason}`, target: { kind: 'job', jobId: render.jobId }, urgent: true });
  }

  /** Drops what is waiting (the app quits). */
  dispose(): void {
    this.#cancel?.();
    this.#cancel = null;
    this.#pending = [];
  }

  #flush(): void {
    const renders = this.#pending;
    this.#pending = [];
    this.#cancel = null;
    if (renders.length === 0 || this.#deps.isFocused()) return;
    if (renders.length === 1) {
      const [render] = renders as [FinishedRender];
      this.#deps.show({
        title: 'Render complete',
        body: `${render.fileName}: ${countOf(render.frames, 'frame')} rendered.`,
        target: { kind: 'job', jobId: render.jobId },
        urgent: false,
      });
      return;
    }
    const frames = renders.reduce((sum, r) => sum + r.frames, 0);
    this.#deps.show({
      title: `${renders.length} renders complete`,
      body: `${listNames(renders.map((r) => r.fileName))}: ${countOf(frames, 'frame')} in all.`,
      target: { kind: 'window' },
      urgent: false,
    });
  }
}

/** What a click on a job's notification does: open its output folder once downloaded, else show the job. */
export function jobClickAction(jobId: string, job: { download: { state: string; dir: string | null } } | undefined): { kind: 'folder'; dir: string } | { kind: 'job'; jobId: string } {
  if (job && job.download.state === 'done' && job.download.dir) return { kind: 'folder', dir: job.download.dir };
  return { kind: 'job', jobId };
}
