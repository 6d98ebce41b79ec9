import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { SubmissionRecord } from '../../../src/core/journal/submission-record';
import type { TestNode } from '../../helpers/node';

/** A CLI configuration folder of its own, with the environment that points the CLI at a server. */
export interface CliSetup {
  configDir: string;
  env: NodeJS.ProcessEnv;
  /** Every submission in the journal, oldest first. */
  journal: () => Promise<SubmissionRecord[]>;
}

/** A fresh RENDERDROP_CONFIG_DIR with RENDERDROP_BASE_URL and RENDERDROP_API_KEY set. */
export async function cliSetup(baseUrl: string, apiKey: string): Promise<CliSetup> {
  const configDir = await mkdtemp(join(tmpdir(), 'rd-cli-config-'));
  return {
    configDir,
    env: { RENDERDROP_CONFIG_DIR: configDir, RENDERDROP_BASE_URL: baseUrl, RENDERDROP_API_KEY: apiKey, CI: process.env.CI ?? '' },
    journal: async () => {
      const dir = join(configDir, 'submissions');
      const names = await readdir(dir).catch(() => [] as string[]);
      const records = await Promise.all(names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as SubmissionRecord));
      return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
  };
}

/** Every job on the node (newest 100). */
export async function nodeJobs(t: TestNode): Promise<any[]> {
  const res = await t.call('GET', '/jobs?pageSize=100');
  if (res.status !== 200) throw new Error(`GET /jobs: ${res.status}`);
  return res.json.jobs;
}

/** The node's jobs made from a file of this name. */
export async function jobsOfFile(t: TestNode, fileName: string): Promise<any[]> {
  return (await nodeJobs(t)).filter((job) => job.sceneFile?.fileName === fileName);
}

/** Paths of every file under `dir`, relative and sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The result `submit --json` / `resume --json` printed. */
export function parseSubmissions(stdout: string): any[] {
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`no JSON in output:\n${stdout}`);
  return JSON.parse(stdout.slice(start)).submissions;
}
