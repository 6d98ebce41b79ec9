import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../../src/render-node/blender/probe';
import { requireBlender } from '../../helpers/blender';
import { runCli } from '../../helpers/cli';
import { makeLibraryChains, type LibraryChains } from '../../helpers/library-chains';
import { startTestNode, type TestNode } from '../../helpers/node';
import { renderInPlace } from '../../helpers/pack-corpus';
import { decodePng, hasColour, type Pixels } from '../../helpers/png-pixels';
import { requireZipTool } from '../../helpers/zip-tools';
import { cliSetup, nodeJobs, type CliSetup } from '../../cli/helpers/cli-setup';

const blenderPath = requireBlender();
const zipPath = requireZipTool('zip');

interface Warning {
  code: string;
  message: string;
  path?: string;
}

/** A project folder zipped as an artist does it, with Info-ZIP from inside the folder. */
function zipFolder(folder: string, out: string): string {
  execFileSync(zipPath!, ['-r', '-q', out, '.'], { cwd: folder, env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  return out;
}

async function framesOf(folder: string): Promise<Pixels[]> {
  const names = (await readdir(folder)).filter((n) => n.endsWith('.png')).sort();
  return Promise.all(names.map(async (n) => decodePng(await readFile(join(folder, n)))));
}

function expectSamePixels(rendered: Pixels[], inPlace: Pixels[]): void {
  expect(rendered).toHaveLength(inPlace.length);
  for (const [index, frame] of rendered.entries()) {
    expect([frame.width, frame.height, frame.channels]).toEqual([inPlace[index]!.width, inPlace[index]!.height, inPlace[index]!.channels]);
    expect(frame.data.equals(inPlace[index]!.data), `frame ${index + 1} is pixel-identical to Blender in place`).toBe(true);
  }
}

describe.skipIf(!blenderPath || !zipPath)('library paths resolved as Blender resolves them (real node, real Blender)', () => {
  let work: string;
  let chains: LibraryChains;
  let t: TestNode;
  let cli: CliSetup;
  const inPlace = new Map<string, Pixels[]>();

  /** The node's newest job, and the texts of its analysis that speak of files. */
  async function newestJob(): Promise<{ job: { id: string; analysis: { warnings: Warning[]; dependencies: unknown[] } }; texts: string[] }> {
    const [job] = (await nodeJobs(t)).sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
    const texts = [...job.analysis.warnings.flatMap((w: Warning) => [w.message, w.path ?? '']), JSON.stringify(job.analysis.dependencies)];
    return { job, texts };
  }

  function expectNoInternalPaths(texts: string[], jobId: string): void {
    for (const text of texts) {
      expect(text).not.toContain('_external');
      expect(text).not.toContain(t.dataDir);
      expect(text).not.toContain(`/${jobId}/`);
      expect(text).not.toContain('.renderdrop-not-uploaded');
    }
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-library-paths-'));
    chains = await makeLibraryChains(blenderPath!, work);
    for (const [key, scene] of [['forest', chains.forest.scene], ['loop', chains.loop.scene]] as const) {
      await renderInPlace(blenderPath!, scene, join(work, `inplace-${key}`, 'frame_'), 1, 2);
      inPlace.set(key, await framesOf(join(work, `inplace-${key}`)));
    }
    const c = chains.colours;
    for (const key of ['shot', 'forest', 'tree']) expect(hasColour(inPlace.get('forest')![0]!, c[key]!), `Blender in place shows ${key}`).toBe(true);
    for (const key of ['loopshot', 'set_a', 'set_b']) expect(hasColour(inPlace.get('loop')![0]!, c[key]!), `Blender in place shows ${key}`).toBe(true);
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
  }, 170_000);
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('renders a zipped project whose scene is three folders down, with a library of a library, as Blender does in place', async () => {
    const zip = zipFolder(chains.forest.project, join(work, 'forest_show.zip'));
    const out = join(work, 'out-forest');
    const scene = relative(chains.forest.project, chains.forest.scene);
    const run = await runCli(['submit', zip, '--scene', scene, '--yes', '--download', out], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/\bmissing\b/i);
    const { job, texts } = await newestJob();
    expect(job.analysis.warnings.filter((w) => w.code === 'missing-dependency')).toEqual([]);
    expect(job.analysis.dependencies).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'library', name: 'tree.blend', resolvedPath: 'assets/env/trees/tree.blend', exists: true }),
      expect.objectContaining({ kind: 'library', name: 'forest.blend', resolvedPath: 'assets/env/forest.blend', exists: true }),
    ]));
    expectNoInternalPaths(texts, job.id);
    const [record] = await cli.journal();
    expectSamePixels(await framesOf(record!.downloadedTo!), inPlace.get('forest')!);
  }, 170_000);

  it('renders a packed shot with two levels of libraries that link each other, with nothing called missing', async () => {
    const out = join(work, 'out-loop');
    const run = await runCli(['submit', chains.loop.scene, '--yes', '--download', out, '--project', chains.loop.project], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/\bmissing\b/i);
    expect(run.stdout + run.stderr).not.toMatch(/_external|_libraries/);
    const { job } = await newestJob();
    expect(job.analysis.warnings.filter((w) => w.code === 'missing-dependency')).toEqual([]);
    expect(job.analysis.dependencies.filter((d) => (d as { exists: boolean }).exists === false)).toEqual([]);
    const record = (await cli.journal()).find((r) => r.jobId === job.id)!;
    expectSamePixels(await framesOf(record.downloadedTo!), inPlace.get('loop')!);
  }, 170_000);

  it('still names a truly missing library of a library once, by the path Blender shows for it in the scene', async () => {
    const project = join(work, 'forest_missing');
    await cp(chains.forest.project, project, { recursive: true });
    const tree = join(project, relative(chains.forest.project, chains.forest.tree));
    await rm(tree);
    const zip = zipFolder(project, join(work, 'forest_missing.zip'));
    const scene = relative(chains.forest.project, chains.forest.scene);
    const run = await runCli(['submit', zip, '--scene', scene, '--yes', '--frames', '1'], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const { job, texts } = await newestJob();
    const stored = `//${relative(dirname(chains.forest.scene), chains.forest.tree)}`;
    const missing = job.analysis.warnings.filter((w) => w.code === 'missing-dependency');
    expect(missing).toEqual([{ code: 'missing-dependency', path: stored, message: expect.stringContaining(stored) }]);
    expect(missing[0]!.message).toContain(basename(tree));
    expectNoInternalPaths(texts, job.id);
    const lines = (run.stdout + run.stderr).split('\n').filter((l) => /\bmissing\b/i.test(l));
    expect(lines, run.stdout + run.stderr).toHaveLength(1);
    expect(lines[0]).toContain(stored);
    expectNoInternalPaths(lines, job.id);
  }, 170_000);

  it('names a truly missing library of a packed shot by the artist\'s path, never by a path inside the bundle', async () => {
    const project = join(work, 'loop_missing');
    await cp(chains.loop.project, project, { recursive: true });
    const setB = join(project, relative(chains.loop.project, chains.loop.setB));
    await rm(setB);
    const run = await runCli(['submit', join(project, relative(chains.loop.project, chains.loop.scene)), '--yes', '--frames', '1', '--project', project], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toContain(setB);
    const { job } = await newestJob();
    expectNoInternalPaths(output.split('\n'), job.id);
    const missing = job.analysis.warnings.filter((w) => w.code === 'missing-dependency');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.message).toContain('set_b.blend');
    expect(missing[0]!.message).not.toContain(t.dataDir);
  }, 170_000);
});
