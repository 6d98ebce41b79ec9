import type { Logger } from 'pino';

/**
 * Keep a long-running command (a node, a worker) alive until SIGINT or SIGTERM, then close it. A close
 * that fails is logged; the command ends either way.
 */
export function untilStopped(log: Logger, message: string, close: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    const stop = (signal: string) => {
      log.info({ signal }, message);
      close().then(done, (err: unknown) => {
        log.error({ err }, 'stopping failed');
        done();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
