import { open } from 'node:fs/promises';
import { BlendFileError } from '../blend-file-error';
import { BlendTooLargeError, ContentGuard, guarded } from './content-guard';
import { compressedContent, compressionAt } from '../open-byte-source';
import type { BlendCompression } from '../byte-source';

/** What {@link checkBlendContent} found; `bytes` is null when this reader cannot unpack the file (Blender may). */
export type BlendContentVerdict =
  | { ok: true; compression: BlendCompression; bytes: number | null }
  | { ok: false; problem: 'not-blend' | 'too-large' | 'damaged' };

const HEAD_BYTES = 64;

/**
 * Whether the file at `path` is a .blend that unpacks to at most `maxBytes`, found without writing
 * anything and in bounded memory: a compressed file is unpacked as a stream, frame by frame, each held
 * to the size its index claims, its header checked in the first bytes and its block headers walked,
 * stopping at the first violation. A plain file is judged by its header and size. File system errors
 * are thrown.
 */
export async function checkBlendContent(path: string, maxBytes: number): Promise<BlendContentVerdict> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const compression = await compressionAt(handle, size);
    const guard = new ContentGuard(path, maxBytes);
    if (compression === 'none') {
      const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
      await handle.read(head, 0, head.length, 0);
      guard.check(head);
      guard.end();
      return size > maxBytes ? { ok: false, problem: 'too-large' } : { ok: true, compression, bytes: size };
    }
    const { content, table } = await compressedContent(path, handle, size, compression);
    if (table && table.decompressedOffsets[table.decompressedOffsets.length - 1]! > maxBytes) {
      content.destroy();
      return { ok: false, problem: 'too-large' };
    }
    for await (const chunk of guarded(content, guard)) void chunk;
    return { ok: true, compression, bytes: guard.bytes };
  } catch (error) {
    if (error instanceof BlendTooLargeError) return { ok: false, problem: 'too-large' };
    if (error instanceof BlendFileError && error.code === 'not-blend') return { ok: false, problem: 'not-blend' };
    if (error instanceof BlendFileError && error.code === 'unsupported') return { ok: true, compression: 'zstd', bytes: null };
    if (error instanceof BlendFileError && error.code !== 'unreadable' && error.code !== 'not-found') return { ok: false, problem: 'damaged' };
    if (typeof error === 'object' && error !== null && 'syscall' in error) throw error;
    return { ok: false, problem: 'damaged' };
  } finally {
    await handle.close();
  }
}
