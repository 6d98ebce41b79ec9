import { ImpossibleFigures } from './checks';

type Task = () => unknown;

const tasks: Task[] = [];
const late = new Set<Promise<void>>();
let stopping = false;
let interruptedBy: NodeJS.Signals | null = null;
let draining: Promise<void> | null = null;
let handlersInstalled = false;

/** Thrown when work is started after the benchmark was interrupted. */
export class InterruptedError extends Error {
  constructor() {
    super('The benchmark was interrupted.');
  }
}

/** Whether Ctrl-C or SIGTERM stopped the benchmark. */
export function interrupted(): boolean {
  return interruptedBy !== null;
}

/** Throws InterruptedError once the benchmark was interrupted, so long loops stop early. */
export function throwIfInterrupted(): void {
  if (interruptedBy !== null) throw new InterruptedError();
}

async function runTask(task: Task): Promise<void> {
  try {
    await task();
  } catch (error) {
    console.error(`cleanup failed: ${(error as Error).message}`);
  }
}

async function drain(): Promise<void> {
  for (;;) {
    const task = tasks.pop();
    if (task !== undefined) await runTask(task);
    else if (late.size > 0) await Promise.all(late);
    else return;
  }
}

/**
 * Runs every registered task, newest first, one at a time, reporting failures without stopping.
 * Concurrent callers share one pass.
 */
export function runCleanup(): Promise<void> {
  stopping = true;
  draining ??= drain().finally(() => {
    draining = null;
  });
  return draining;
}

/**
 * Registers a task to run when the benchmark ends, normally or on Ctrl-C / SIGTERM, so temp files,
 * servers and child processes never outlive it. Returns a function that runs the task now and
 * unregisters it. Registering after the end began runs the task at once and throws InterruptedError.
 */
export function onCleanup(task: Task): () => Promise<void> {
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: cleaning up`);
        interruptedBy = signal;
        void runCleanup().finally(() => process.exit(130));
      });
    }
  }
  if (stopping) {
    const running = runTask(task);
    late.add(running);
    void running.finally(() => late.delete(running));
    throw new InterruptedError();
  }
  tasks.push(task);
  return async () => {
    const index = tasks.indexOf(task);
    if (index === -1) return;
    tasks.splice(index, 1);
    await task();
  };
}

/**
 * Runs a benchmark's main function, then the cleanup. An error is reported and sets exit code 1,
 * unless it only follows from an interruption (exit code 130); figures that failed their checks are
 * reported one line each, without a stack. A closed stdout (`| head`) does not stop the benchmark
 * before it has cleaned up.
 */
export async function runBench(main: () => Promise<void>): Promise<void> {
  process.stdout.on('error', () => undefined);
  try {
    await main();
  } catch (error) {
    if (!interrupted()) {
      console.error(error instanceof ImpossibleFigures ? error.message : error);
      process.exitCode = 1;
    }
  } finally {
    await runCleanup();
  }
  if (interrupted()) process.exit(130);
}
