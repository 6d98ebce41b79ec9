import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { JobRecord } from '../../store';
import type { ChunksRepo } from '../chunks-repo';
import type { ChunkData } from '../protocol';

/** The fingerprint of a job's scene (its uploaded file), computed once and kept with its chunks. */
export async function sceneFingerprint(job: JobRecord, chunks: ChunksRepo, uploadPath: (slug: string) => string): Promise<ChunkData['scene']> {
  const sceneFile = job.sceneFile!;
  let known = chunks.scene(job.id);
  if (!known) {
    const path = uploadPath(job.uploadSlug);
    const hash = createHash('sha256');
    await pipeline(createReadStream(path), hash);
    known = { sha256: hash.digest('hex'), size: (await stat(path)).size };
    chunks.setScene(job.id, known.sha256, known.size);
  }
  return { sha256: known.sha256, size: known.size, kind: sceneFile.fileType, path: sceneFile.scenePath! };
}
