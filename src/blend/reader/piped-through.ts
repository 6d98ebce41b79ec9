import { Readable, type Transform } from 'node:stream';

/**
 * `source` piped through `transform`, returning the transform's readable side. Unlike a bare `pipe`,
 * an error of `source` fails the result, and closing the result stops `source`.
 */
export function pipedThrough(source: Readable, transform: Transform): Readable {
  source.on('error', (error) => transform.destroy(error));
  transform.on('close', () => source.destroy());
  return source.pipe(transform);
}

/**
 * The stream `open` makes, made only when first read. A stream started early can fail (a file gone, a
 * cut-short gzip) while nobody listens yet, and its error would escape as an uncaught exception;
 * destroying the result before a read opens nothing.
 */
export function openedOnRead(open: () => Readable): Readable {
  return Readable.from(
    (async function* () {
      yield* open();
    })(),
    { objectMode: false },
  );
}
