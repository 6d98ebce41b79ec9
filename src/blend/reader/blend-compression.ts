import type { BlendCompression } from './byte-source';

const GZIP_MAGIC = [0x1f, 0x8b];
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/** How a .blend is compressed, told by its first four bytes. */
export function compressionOf(head: Uint8Array): BlendCompression {
  if (startsWith(head, ZSTD_MAGIC)) return 'zstd';
  if (startsWith(head, GZIP_MAGIC)) return 'gzip';
  return 'none';
}
