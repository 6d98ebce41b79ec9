import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { API_PREFIX, type ApiClient } from '../../src/core/api/api-client';

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

/** Requests a client made, by the same kinds as {@link RequestCounts}. */
export type MadeRequests = Omit<RequestCounts, 'total' | 'responseBytes'>;

/** The calls of the API client that job tracking makes. */
type JobReads = Pick<ApiClient, 'getAllProgress' | 'getJob'>;

/**
 * Counts the requests a client makes, on the client's side, so they can be compared with what the
 * node counted: wraps `getAllProgress` and `getJob` of an API client and keeps the calls in flight,
 * so a count is taken only once every call made has reached the node.
 */
export class MadeRequestCounter {
  readonly #made: MadeRequests = { progress: 0, jobReads: 0, other: 0 };
  readonly #pending = new Set<Promise<unknown>>();
  /** The client, with every call counted. */
  readonly client: JobReads;

  constructor(client: JobReads) {
    this.client = {
      getAllProgress: (options) => this.#count('progress', () => client.getAllProgress(options)),
      getJob: (id, options) => this.#count('jobReads', () => client.getJob(id, options)),
    };
  }

  /** The counts so far. */
  snapshot(): MadeRequests {
    return { ...this.#made };
  }

  /** Resolves once no counted call is in flight. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  #count<T>(kind: keyof MadeRequests, call: () => Promise<T>): Promise<T> {
    this.#made[kind]++;
    const running = call();
    this.#pending.add(running);
    void running.finally(() => this.#pending.delete(running)).catch(() => undefined);
    return running;
  }
}

/** The difference between two snapshots of requests made. */
export function madeBetween(before: MadeRequests, after: MadeRequests): MadeRequests {
  return { progress: after.progress - before.progress, jobReads: after.jobReads - before.jobReads, other: after.other - before.other };
}
