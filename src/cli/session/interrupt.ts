import { EXIT } from '../exit-codes';

/** An abort signal tied to Ctrl-C (SIGINT) and SIGTERM. */
export interface Interrupt {
  signal: AbortSignal;
  /** Stops listening for the signals. */
  dispose(): void;
}

/**
 * The first SIGINT or SIGTERM aborts `signal`, so the running work stops cleanly and saves its state;
 * a second one exits at once with the interrupted code.
 */
export function listenForInterrupt(onInterrupt?: () => void): Interrupt {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
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
