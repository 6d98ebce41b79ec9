import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where the node keeps files inside its data folder. */
export class Storage {
  constructor(readonly dataDir: string) {
    mkdirSync(this.uploadsDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.jobsDir, { recursive: true, mode: 0o700 });
  }

  get uploadsDir(): string {
    return join(this.dataDir, 'uploads');
  }
  get jobsDir(): string {
    return join(this.dataDir, 'jobs');
  }
  /** Scratch space of renders and of Blender itself; emptied when the node starts. */
  get tempDir(): string {
    return join(this.dataDir, 'tmp');
  }
  /** The stored bytes of an upload, once complete. */
  uploadPath(slug: string): string {
    return join(this.uploadsDir, plainName(slug, 'upload'));
  }
  /**
   * A job's own folder: scene/ (the source), frames/, previews/, composite/, package/. An id that is
   * not one plain name throws (see plainName), so no caller reaches past `jobs/`.
   */
  jobDir(jobId: string): string {
    return join(this.jobsDir, plainName(jobId, 'job'));
  }
  sceneDir(jobId: string): string {
    return join(this.jobDir(jobId), 'scene');
  }
  framesDir(jobId: string): string {
    return join(this.jobDir(jobId), 'frames');
  }
  compositeDir(jobId: string): string {
    return join(this.jobDir(jobId), 'composite');
  }
  packageDir(jobId: string): string {
    return join(this.jobDir(jobId), 'package');
  }
  /** PNG previews of single frames, made as they are rendered. */
  previewsDir(jobId: string): string {
    return join(this.jobDir(jobId), 'previews');
  }
  previewPath(jobId: string): string {
    return join(this.packageDir(jobId), 'preview.png');
  }
}

/** `id` when it is one plain file name; an empty one, `.`, `..`, or one with a separator or NUL throws. */
function plainName(id: string, what: string): string {
  if (id === '' || id === '.' || id === '..' || /[\\/\0]/.test(id)) throw new Error(`Not ${what === 'job' ? 'a job id' : 'an upload name'}: ${JSON.stringify(id.slice(0, 80))}.`);
  return id;
}
