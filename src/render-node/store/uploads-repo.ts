import { z } from 'zod';
import { fileTypeSchema, type FileType } from '../../shared/api';
import type { Db } from './db';
import { parseOptionalRow } from './db-rows';

/** An upload target handed out by `POST /uploads`. */
export interface UploadRecord {
  slug: string;
  fileName: string;
  fileType: FileType;
  userId: string;
  createdAt: string;
  expiresAt: string;
  size: number | null;
  receivedAt: string | null;
  jobId: string | null;
}

const uploadRowSchema = z.object({
  slug: z.string(),
  file_name: z.string(),
  file_type: fileTypeSchema,
  user_id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  size: z.number().int().nullable(),
  received_at: z.string().nullable(),
  job_id: z.string().nullable(),
});

const fromRow = (r: z.infer<typeof uploadRowSchema>): UploadRecord => ({
  slug: r.slug,
  fileName: r.file_name,
  fileType: r.file_type,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  size: r.size,
  receivedAt: r.received_at,
  jobId: r.job_id,
});

/** Upload persistence. */
export class UploadsRepo {
  constructor(private readonly db: Db) {}

  create(u: Pick<UploadRecord, 'slug' | 'fileName' | 'fileType' | 'userId' | 'createdAt' | 'expiresAt'>): void {
    this.db
      .prepare('INSERT INTO uploads (slug, file_name, file_type, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(u.slug, u.fileName, u.fileType, u.userId, u.createdAt, u.expiresAt);
  }

  get(slug: string): UploadRecord | null {
    const row = parseOptionalRow('uploads', uploadRowSchema, this.db.prepare('SELECT * FROM uploads WHERE slug = ?').get(slug));
    return row ? fromRow(row) : null;
  }

  markReceived(slug: string, size: number, at: string): void {
    this.db.prepare('UPDATE uploads SET size = ?, received_at = ? WHERE slug = ?').run(size, at, slug);
  }

  /** Attach an upload to the job made from it; false when another job already took it. */
  claim(slug: string, jobId: string): boolean {
    return this.db.prepare('UPDATE uploads SET job_id = ? WHERE slug = ? AND job_id IS NULL').run(jobId, slug).changes === 1;
  }
}
