import { z } from 'zod';
import {
  chunkedUploadDoneSchema,
  chunkedUploadSchema,
  chunkedUploadsInfoSchema,
  type ChunkedUpload,
  type ChunkedUploadDone,
  type ChunkedUploadRequest,
  type ChunkedUploadsInfo,
} from '../../shared/api';
import { NotFoundError } from '../errors';
import type { ApiClient, CallOptions } from './api-client';

/** What `POST node/chunked-uploads/{id}/complete` answers: the upload made, or the chunks still needed. */
export type ChunkedCompletion = ChunkedUploadDone | { missing: string[] };

const completionSchema = z.union([chunkedUploadDoneSchema, z.object({ missing: z.array(z.string()).min(1) })]);
const segment = (id: string) => encodeURIComponent(id);

/**
 * `GET node/chunked-uploads`: what a Renderdrop node's chunked uploads accept; null from a farm
 * without the extension (404).
 */
export async function chunkedUploadsInfo(api: ApiClient, options: CallOptions = {}): Promise<ChunkedUploadsInfo | null> {
  try {
    return await api.callNode(
      { name: 'GET /node/chunked-uploads', method: 'GET', path: 'node/chunked-uploads', safety: 'read', subject: 'chunked uploads', action: 'ask whether the farm takes chunked uploads', schema: chunkedUploadsInfoSchema },
      options,
    );
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** `POST node/chunked-uploads`: a chunked upload of a file described by its manifest; answers the chunks this key must still send. */
export function createChunkedUpload(api: ApiClient, request: ChunkedUploadRequest, options: CallOptions = {}): Promise<ChunkedUpload> {
  return api.callNode(
    { name: 'POST /node/chunked-uploads', method: 'POST', path: 'node/chunked-uploads', safety: 'idempotent', subject: 'the upload', action: `prepare the upload of ${request.fileName}`, schema: chunkedUploadSchema, json: request },
    options,
  );
}

/** `POST node/chunked-uploads/{id}/complete`: the node rebuilds and checks the file; answers its upload, or the chunks still missing. */
export function completeChunkedUpload(api: ApiClient, id: string, options: CallOptions = {}): Promise<ChunkedCompletion> {
  return api.callNode(
    { name: 'POST /node/chunked-uploads/{id}/complete', method: 'POST', path: `node/chunked-uploads/${segment(id)}/complete`, safety: 'idempotent', subject: 'the upload', action: 'finish the upload', schema: completionSchema, json: {} },
    options,
  );
}
