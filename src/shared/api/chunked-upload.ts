import { z } from 'zod';
import { fileTypeSchema, MAX_UPLOAD_BYTES } from './upload';

/**
 * Chunked uploads, a Renderdrop-node extension of the API: the client describes the file it would
 * PUT as content-defined chunks, the node answers which of them this key has not sent before, the
 * client sends only those, and the node rebuilds the file into an upload (a slug) exactly as a PUT
 * to a presigned URL would have left it. A farm without the extension answers 404.
 */

/** Limits of the content-defined chunker both ends agree on (FastCDC-style, normalized chunking). */
export const CHUNKING = { minBytes: 8 * 1024, avgBytes: 32 * 1024, maxBytes: 128 * 1024 } as const;

/** Most chunks one manifest may list (a 5 GiB file at the average size is ~164k). */
export const MAX_MANIFEST_CHUNKS = 400_000;

/** Largest body of one batch of chunks sent in one request. */
export const MAX_CHUNK_BATCH_BYTES = 16 * 1024 * 1024;

/** Encodings of one chunk inside a batch: its bytes as they are, or zstd-compressed. */
export const CHUNK_ENCODINGS = { raw: 0, zstd: 1 } as const;

/** Content-Type of a batch of chunks (plain bytes, so proxies in between pass them untouched). */
export const CHUNK_BATCH_CONTENT_TYPE = 'application/octet-stream';

/**
 * Bytes before each chunk of a batch: its SHA-256 (32 bytes), its encoding (1 byte), the length of
 * what follows (4 bytes, big-endian).
 */
export const CHUNK_FRAME_HEAD_BYTES = 37;

const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lowercase hex');

/** One chunk of a manifest, in file order. */
export const manifestChunkSchema = z.object({ hash: hashSchema, size: z.number().int().min(1).max(CHUNKING.maxBytes) }).strict();

/** A file described as its chunks, in order, with the whole's SHA-256 and size. */
export const chunkManifestSchema = z
  .object({
    size: z.number().int().min(1).lt(MAX_UPLOAD_BYTES),
    sha256: hashSchema,
    /**
     * The chunks, in order. Absent: the client sends the file whole to `wholeUrl` without cutting it
     * (a project this node has not been sent before), and the node cuts it into chunks itself.
     */
    chunks: z.array(manifestChunkSchema).min(1).max(MAX_MANIFEST_CHUNKS).optional(),
    /** The bundle's files and where their bytes lie in it, for information only. */
    files: z.array(z.object({ path: z.string().max(4096), offset: z.number().int().min(0), size: z.number().int().min(0) }).strict()).max(100_000).optional(),
  })
  .strict()
  .refine((m) => m.chunks === undefined || m.chunks.reduce((sum, c) => sum + c.size, 0) === m.size, { message: 'the chunks must add up to the size' });
export type ChunkManifest = z.infer<typeof chunkManifestSchema>;
export type ManifestChunk = z.infer<typeof manifestChunkSchema>;

/** `POST node/chunked-uploads`: the file to send, as a manifest. */
export const chunkedUploadRequestSchema = z.object({ fileName: z.string().min(1).max(255), fileType: fileTypeSchema, manifest: chunkManifestSchema }).strict();
export type ChunkedUploadRequest = z.infer<typeof chunkedUploadRequestSchema>;

/** A chunked upload: the chunks the node still needs from this key (distinct, in file order). */
export const chunkedUploadSchema = z.object({
  id: z.string(),
  missing: z.array(hashSchema),
  /** Bytes of the file already on the node for this key. */
  bytesReused: z.number().int().min(0),
  /** Where batches of chunks are PUT: a signed URL, used as it is and without the API key (like a presigned upload URL). */
  chunksUrl: z.string(),
  /** Where the whole file may be PUT instead, in one request (signed like `chunksUrl`): for a file the node has little of. */
  wholeUrl: z.string(),
  expiresAt: z.string(),
});
export type ChunkedUpload = z.infer<typeof chunkedUploadSchema>;

/** `GET node/chunked-uploads`: what the node's extension accepts. */
export const chunkedUploadsInfoSchema = z.object({
  chunking: z.object({ minBytes: z.number(), avgBytes: z.number(), maxBytes: z.number() }),
  encodings: z.array(z.string()),
  maxBatchBytes: z.number().int().positive(),
});
export type ChunkedUploadsInfo = z.infer<typeof chunkedUploadsInfoSchema>;

/** `POST node/chunked-uploads/{id}/complete`: the upload the rebuilt file became (its slug makes the job). */
export const chunkedUploadDoneSchema = z.object({ slug: z.string(), size: z.number().int(), sha256: hashSchema });
export type ChunkedUploadDone = z.infer<typeof chunkedUploadDoneSchema>;
