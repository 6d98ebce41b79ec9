import { performance } from 'node:perf_hooks';
import { uploadFile } from '../../src/core/upload/upload';

/** What the upload benchmark asks this child to do. */
interface UploadJob {
  filePath: string;
  size: number;
  uploadUrl: string;
  slug: string;
  expiresAt: string;
}

/** Resource use of this process so far, as the benchmark reads it. */
function usage() {
  const u = process.resourceUsage();
  return { cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssBytes: u.maxRSS * 1024 };
}

const arg = process.argv[2];
if (arg === undefined || arg === '--noop') {
  process.stdout.write(`${JSON.stringify({ noop: true, ...usage() })}\n`);
} else {
  const job = JSON.parse(arg) as UploadJob;
  let progressEvents = 0;
  const started = performance.now();
  const result = await uploadFile({
    filePath: job.filePath,
    size: job.size,
    fileType: 'blend',
    target: { uploadUrl: job.uploadUrl, slug: job.slug, expiresAt: job.expiresAt },
    maxAttempts: 1,
    onProgress: () => {
      progressEvents++;
    },
  });
  const transferSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ transferSeconds, bytes: result.bytes, attempts: result.attempts, progressEvents, ...usage() })}\n`);
}
