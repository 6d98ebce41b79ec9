type Task = () => unknown;

const tasks: Task[] = [];
let handlersInstalled = false;

/** Runs every registered task, newest first, reporting failures without stopping. */
export async function runCleanup(): Promise<void> {
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    try {
      await task();
    } catch (error) {
      console.error(`cleanup failed: ${(error as Error).message}`);
    }
  }
}

/**
 * Registers a task to run when the benchmark ends, normally or on Ctrl-C / SIGTERM, so temp files and
 * servers never outlive it. Returns a function that runs the task now and unregisters it.
 */
export function onCleanup(task: Task): () => Promise<void> {
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: cleaning up`);
        void runCleanup().finally(() => process.exit(130));
      });
    }
  }
  tasks.push(task);
  return async () => {
    const index = tasks.indexOf(task);
    if (index === -1) return;
    tasks.splice(index, 1);
    await task();
  };
}
