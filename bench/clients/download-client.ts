import { performance } from 'node:perf_hooks';
import { ApiClient } from '../../src/core/api/api-client';
import { downloadJobOutputs } from '../../src/core/download/download-job';

/** What the download benchmark asks this child to do; the API key comes in RENDERDROP_API_KEY. */
interface DownloadJob {
  baseUrl: string;
  jobId: string;
  dir: string;
  concurrency?: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as DownloadJob;
const apiKey = process.env.RENDERDROP_API_KEY;
if (!apiKey || !job.baseUrl || !job.jobId || !job.dir) {
  process.stderr.write('usage: RENDERDROP_API_KEY=... download-client \'{"baseUrl","jobId","dir","concurrency"}\'\n');
  process.exit(2);
}
let progressEvents = 0;
const started = performance.now();
const result = await downloadJobOutputs({
  client: new ApiClient({ baseUrl: job.baseUrl, apiKey }),
  jobId: job.jobId,
  dir: job.dir,
  ...(job.concurrency !== undefined ? { concurrency: job.concurrency } : {}),
  onProgress: () => {
    progressEvents++;
  },
});
const seconds = (performance.now() - started) / 1000;
const u = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({
    seconds,
    files: result.files.length,
    skipped: result.files.filter((f) => f.skipped).length,
    bytes: result.bytes,
    progressEvents,
    cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6,
    maxRssBytes: u.maxRSS * 1024,
  })}\n`,
);
