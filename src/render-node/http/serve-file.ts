import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.exr': 'image/x-exr',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.bmp': 'image/bmp',
  '.tga': 'image/x-tga',
  '.webp': 'image/webp',
  '.zip': 'application/zip',
};

/** Parse a single `bytes=` range against a size: the inclusive span, 'unsatisfiable', or null to send it all. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Send a file with `Content-Length`, a strong `ETag`, `Last-Modified`, conditional GET and single
 * byte ranges (206), honouring `If-Range` so a resumed download never mixes two versions.
 */
export async function serveFile(request: FastifyRequest, reply: FastifyReply, filePath: string, downloadName?: string): Promise<void> {
  const st = await stat(filePath);
  const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  reply.header('ETag', etag);
  reply.header('Last-Modified', st.mtime.toUTCString());
  reply.header('Accept-Ranges', 'bytes');
  reply.header('Content-Type', TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream');
  reply.header('Cache-Control', 'private, max-age=0');
  if (downloadName) reply.header('Content-Disposition', `attachment; filename="${downloadName.replace(/["\\\r\n]/g, '_')}"`);

  if (request.headers['if-none-match'] === etag) {
    reply.code(304).send();
    return;
  }
  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
  const range = parseRange(rangeHeader, st.size);
  if (range === 'unsatisfiable') {
    reply.code(416).header('Content-Range', `bytes */${st.size}`).header('Content-Type', 'application/json');
    reply.send({ error: { code: 'range_not_satisfiable', message: `The range "${rangeHeader}" is outside the file (${st.size} bytes).` } });
    return;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? st.size - 1;
  const length = st.size === 0 ? 0 : end - start + 1;
  if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${st.size}`);
  reply.header('Content-Length', String(length));
  if (request.method === 'HEAD' || length === 0) {
    reply.send();
    return;
  }
  reply.send(createReadStream(filePath, { start, end, highWaterMark: 1024 * 1024 }));
}
