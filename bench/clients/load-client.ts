import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** What the jobs-list benchmark asks this child to do: keep `connections` GETs of `url` going for `seconds`. */
interface LoadJob {
  url: string;
  connections: number;
  seconds: number;
  /** Also time one `GET` of this URL at a time while the load runs (the node's health check). */
  probeUrl: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
const key = process.env.BENCH_API_KEY ?? '';
const agent = new Agent({ keepAlive: true, maxSockets: job.connections + 1 });
const deadline = performance.now() + job.seconds * 1000;

function get(url: string, auth: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers: auth ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const latencies: number[] = [];
const probes: number[] = [];
const worker = async () => {
  while (performance.now() < deadline) latencies.push(await get(job.url, true));
};
const probe = async () => {
  while (performance.now() < deadline) {
    probes.push(await get(job.probeUrl, false));
    await new Promise((r) => setTimeout(r, 50));
  }
};
const started = performance.now();
await Promise.all([...Array.from({ length: job.connections }, worker), probe()]);
const seconds = (performance.now() - started) / 1000;
agent.destroy();
process.stdout.write(`${JSON.stringify({ requests: latencies.length, seconds, latencies, probes })}\n`);
