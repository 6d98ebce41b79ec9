import type { Readable, Transform } from 'node:stream';

/**
 * `source` piped through `transform`, returning the transform's readable side. Unlike a bare `pipe`,
 * an error of `source` fails the result, and closing the result stops `source`.
 */
export function pipedThrough(source: Readable, transform: Transform): Readable {
  source.on('error', (error) => transform.destroy(error));
  transform.on('close', () => source.destroy());
  return source.pipe(transform);
}
