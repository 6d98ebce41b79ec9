import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { throwIfInterrupted } from './cleanup';

/** Writes a file of `size` bytes made of one random 1 MiB block repeated (incompressible for zip and deflate). */
export async function writeRandomFile(path: string, size: number): Promise<void> {
  const block = randomBytes(1024 * 1024);
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += block.length) {
      throwIfInterrupted();
      await handle.write(block, 0, Math.min(block.length, size - written));
    }
  } finally {
    await handle.close();
  }
}
