import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fileTypeOf } from '../../shared/api';
import { badRequest } from '../http-error';
import { keyOf } from './api-request';
import type { NodeContext } from './context';
import { uploadBody } from './request-schemas';
import type { ZodFastify } from './zod-route';

/** `POST /uploads`: a presigned URL the scene file is then PUT to. */
export function registerUploadRoutes(api: ZodFastify, ctx: NodeContext): void {
  api.post('/uploads', { schema: { body: uploadBody } }, async (request, reply) => {
    const created = createUpload(ctx, request, request.body);
    reply.code(201);
    return created;
  });
}

function createUpload(ctx: NodeContext, request: FastifyRequest, body: z.infer<typeof uploadBody>) {
  if (fileTypeOf(body.fileName) !== body.fileType) {
    throw badRequest('file_type_mismatch', `fileType "${body.fileType}" does not match the extension of "${body.fileName}" (use .blend with "blend", .zip with "zip").`);
  }
  const key = keyOf(request);
  const slug = `u-${randomBytes(16).toString('base64url')}`;
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.uploadUrlTtlMs);
  ctx.uploads.create({ slug, fileName: body.fileName, fileType: body.fileType, userId: key.userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
  const path = `/storage/uploads/${slug}`;
  return { uploadUrl: `${ctx.baseUrl(request)}${path}?${ctx.signer.sign('PUT', path, expiresAt, key.id)}`, slug, expiresAt: expiresAt.toISOString() };
}
