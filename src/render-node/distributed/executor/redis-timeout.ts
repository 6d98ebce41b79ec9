import { HttpError } from '../../http-error';

/** How long a reading for people (the worker list, the analysis warnings) waits for Redis. */
export const READ_TIMEOUT_MS = 3000;

/** The value of `work`, or the fallback when Redis does not answer within {@link READ_TIMEOUT_MS}. */
export function withinTimeout<T>(work: Promise<T>, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(fallback());
      } catch (err) {
        reject(err);
      }
    }, READ_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The 503 answered when Redis does not answer a request in time: `what` ("The render workers cannot be listed") and that the node retries. */
export function redisUnanswered(what: string): never {
  throw new HttpError(503, 'redis_unavailable', `${what}: Redis is not answering. The node keeps retrying.`);
}
