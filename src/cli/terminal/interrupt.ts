import { EXIT } from '../exit-codes';

/** An abort signal tied to Ctrl-C (SIGINT) and SIGTERM. */
export interface Interrupt {
  signal: AbortSignal;
  /** Stops listening for the signals. */
  dispose(): void;
}

/**
 * The first SIGINT or SIGTERM aborts `signal`, so the running work stops cleanly and saves its state;
 * a second one exits at once with the interrupted code. A repeat within `repeatGraceMs` is the same
 * signal raised again by a library's exit hook, not a second Ctrl-C.
 */
export function listenForInterrupt(onInterrupt?: () => void, repeatGraceMs = 250, now: () => number = Date.now): Interrupt {
  const controller = new AbortController();
  let firstAt = 0;
  const handler = () => {
    if (controller.signal.aborted) {
      if (now() - firstAt >= repeatGraceMs) process.exit(EXIT.interrupted);
      return;
    }
    firstAt = now();
    controller.abort();
    onInterrupt?.();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.removeListener('SIGINT', handler);
      process.removeListener('SIGTERM', handler);
    },
  };
}
