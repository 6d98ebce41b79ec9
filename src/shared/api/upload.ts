import { z } from 'zod';
import { httpUrlSchema } from './http-url';

/** The two kinds of source file the API accepts. */
export const FILE_TYPES = ['blend', 'zip'] as const;
export const fileTypeSchema = z.enum(FILE_TYPES);
export type FileType = z.infer<typeof fileTypeSchema>;

/** Files must be strictly smaller than this to be uploaded in one presigned PUT (5 GiB). */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

/** The media type a presigned PUT must carry for each file kind. */
export const UPLOAD_CONTENT_TYPES: Record<FileType, string> = {
  zip: 'application/zip',
  blend: 'application/octet-stream',
};

/** Longest file name most file systems store, in UTF-8 bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** Body of `POST /uploads`. */
export const uploadRequestSchema = z.object({
  fileName: z
    .string()
    .min(1)
    .refine((name) => new TextEncoder().encode(name).length <= MAX_FILE_NAME_BYTES, {
      error: `must be at most ${MAX_FILE_NAME_BYTES} bytes long (as UTF-8); rename the file.`,
    }),
  fileType: fileTypeSchema,
});
export type UploadRequest = z.infer<typeof uploadRequestSchema>;

/** Response of `POST /uploads`. */
export const uploadTargetSchema = z
  .object({
    uploadUrl: httpUrlSchema,
    slug: z.string().min(1),
    expiresAt: z.string().min(1),
  })
  .passthrough();
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

/** Body of `POST /jobs`. */
export const createJobRequestSchema = z.object({ slug: z.string().min(1) });

/** The file kind implied by a file name's extension, or null when it is neither `.blend` nor `.zip`. */
export function fileTypeOf(fileName: string): FileType | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.blend')) return 'blend';
  if (lower.endsWith('.zip')) return 'zip';
  return null;
}
