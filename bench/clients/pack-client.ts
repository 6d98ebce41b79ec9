import { performance } from 'node:perf_hooks';
import { traceScene } from '../../src/blend/pack/trace-scene';
import { writeBundle } from '../../src/blend/pack/write-bundle';

/** Traces a scene and writes its bundle; prints the timings and this process's peak RSS. */
const [scene, out] = process.argv.slice(2);
if (!scene || !out) throw new Error('usage: pack-client <scene.blend> <bundle.zip>');
const started = performance.now();
const plan = await traceScene(scene);
const traced = performance.now();
let progressEvents = 0;
const result = await writeBundle(plan, out, {
  onProgress: () => {
    progressEvents++;
  },
});
const done = performance.now();
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ traceSeconds: (traced - started) / 1000, packSeconds: (done - started) / 1000, bytes: result.bytes, entries: result.entries, totalBytes: plan.totalBytes, progressEvents, maxRssBytes: usage.maxRSS * 1024 })}\n`,
);
