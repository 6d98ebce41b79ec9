import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { API_PREFIX } from '../../src/core/api/api-client';

/** Requests seen by a server, by kind, with the bytes of their response bodies. */
export interface RequestCounts {
  /** `GET /jobs/progress`. */
  progress: number;
  /** `GET /jobs/{id}`. */
  jobReads: number;
  other: number;
  total: number;
  responseBytes: number;
}

const PROGRESS = `${API_PREFIX}jobs/progress`;
const JOB = new RegExp(`^${API_PREFIX}jobs/[^/]+$`);

/**
 * Counts the requests an HTTP server receives, from a listener on its `request` event, and the body
 * bytes of the answers (headers not included) by wrapping each response's `write` and `end`.
 */
export class RequestCounter {
  readonly #server: Server;
  readonly #counts: RequestCounts = { progress: 0, jobReads: 0, other: 0, total: 0, responseBytes: 0 };

  constructor(server: Server) {
    this.#server = server;
    server.on('request', this.#onRequest);
  }

  /** The counts so far. */
  snapshot(): RequestCounts {
    return { ...this.#counts };
  }

  /** Stops counting. */
  detach(): void {
    this.#server.off('request', this.#onRequest);
  }

  readonly #onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '').split('?')[0]!;
    if (request.method === 'GET' && path === PROGRESS) this.#counts.progress++;
    else if (request.method === 'GET' && JOB.test(path)) this.#counts.jobReads++;
    else this.#counts.other++;
    this.#counts.total++;
    const counts = this.#counts;
    const size = (chunk: unknown) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0);
    const write = response.write;
    const end = response.end;
    response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      counts.responseBytes += size(chunk);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== 'function') counts.responseBytes += size(chunk);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
  };
}

/** The difference between two snapshots. */
export function countsBetween(before: RequestCounts, after: RequestCounts): RequestCounts {
  return {
    progress: after.progress - before.progress,
    jobReads: after.jobReads - before.jobReads,
    other: after.other - before.other,
    total: after.total - before.total,
    responseBytes: after.responseBytes - before.responseBytes,
  };
}
