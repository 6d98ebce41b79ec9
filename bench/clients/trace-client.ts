import { performance } from 'node:perf_hooks';
import { traceScene } from '../../src/blend/pack/trace-scene';

/** Traces the scene given as argument `repeat` times and prints the timings and this process's resources. */
const [scene, repeatText] = process.argv.slice(2);
if (!scene) throw new Error('usage: trace-client <scene.blend> [repeat]');
const times: number[] = [];
let dependencies = 0;
let blends = 0;
for (let i = 0; i < Number(repeatText ?? 1); i++) {
  const started = performance.now();
  const plan = await traceScene(scene);
  times.push((performance.now() - started) / 1000);
  dependencies = plan.dependencies.length;
  blends = plan.blends.length;
}
const usage = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ times, dependencies, blends, maxRssBytes: usage.maxRSS * 1024 })}\n`);
