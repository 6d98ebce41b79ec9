import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** How long a stopping node waits for requests in flight, and then for those asked to stop. */
export interface DrainTimes {
  /** Requests in flight may finish within this (default 10 s). */
  graceMs?: number;
  /** Requests asked to stop after the grace get this long to answer (default 2 s). */
  settleMs?: number;
}

/** What stopping the node's HTTP side found: requests that finished, and those asked to stop. */
export interface DrainOutcome {
  finished: number;
  stopped: number;
}

/**
 * The node's HTTP side while it stops: new requests are refused with a 503 in the API's error shape,
 * requests in flight finish, and those still running after the grace period are asked to stop
 * (through `stopping`) before the server and the database close. A request asked to stop gets until
 * its client hangs up (at most the settle time) so its 503 is read, not lost to a reset connection.
 */
export interface RequestDrain {
  /** Aborted when requests still running after the grace period must give up (an upload answers 503). */
  readonly stopping: AbortSignal;
  /** Refuses new requests, waits for those in flight, then asks the rest to stop. */
  drain(times?: DrainTimes): Promise<DrainOutcome>;
}

/** The 503 of a request that reached a stopping node, or that the node stopped. */
export function shuttingDown(message = 'The render node is shutting down; try again once it is back.'): HttpError {
  return new HttpError(503, 'shutting_down', message, { 'retry-after': '5' });
}

/** Counts the requests in flight on `app` and refuses new ones once draining starts. Install before any route. */
export function installRequestDrain(app: FastifyInstance): RequestDrain {
  const controller = new AbortController();
  const inFlight = new Map<object, Socket>();
  let draining = false;

  app.addHook('onRequest', async (request, reply) => {
    if (draining) {
      const refusal = shuttingDown();
      return reply.code(503).headers(refusal.headers).type('application/json').send(refusal.body());
    }
    const token = {};
    inFlight.set(token, request.raw.socket);
    reply.raw.once('close', () => inFlight.delete(token));
    return undefined;
  });

  return {
    stopping: controller.signal,
    async drain(times = {}) {
      draining = true;
      const atStart = inFlight.size;
      if (await until(() => inFlight.size === 0, times.graceMs ?? 10_000)) return { finished: atStart, stopped: 0 };
      const sockets = [...inFlight.values()];
      controller.abort(shuttingDown());
      await until(() => sockets.every((socket) => socket.destroyed), times.settleMs ?? 2_000);
      return { finished: atStart - sockets.length, stopped: sockets.length };
    },
  };
}

/**
 * Resolves true once `done()` holds, false after `ms`. Checked every 20 ms: draining happens once per
 * node, so a short poll is simpler than a wake-up per request and costs nothing measurable.
 */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(20, Math.max(1, deadline - Date.now()))));
  }
  return true;
}
