import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBlender } from '../../src/render-node/blender/probe';
import { requireBlender } from '../helpers/blender';
import { runCli, startServeProcess } from '../helpers/cli';
import { startTestNode, type TestNode } from '../helpers/node';
import { decodePng } from '../helpers/png-pixels';
import { renderInPlace } from '../helpers/pack-corpus';
import { makePythonScenes, renderTrustingInPlace, type PythonScenes } from '../helpers/python-scenes';
import { expectSameFrames } from '../helpers/same-frames';
import { servedApi } from '../helpers/served-node';
import { cliSetup, parseSubmissions, type CliSetup } from './helpers/cli-setup';

const blenderPath = requireBlender();

const DRIVER = 'Driver on Cube › Location Z uses Python (`wobble(frame)`)';
const MODULE = 'Text `rig_wobble.py` runs as a module';

describe.skipIf(!blenderPath)('scene Python, said up front and after the render (real node, real Blender)', () => {
  let work: string;
  let scenes: PythonScenes;
  let t: TestNode;
  let cli: CliSetup;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-python-'));
    scenes = await makePythonScenes(blenderPath!, work);
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('`submit --validate-only --json` names exactly the Python driver and the text block, and nothing for simple drivers or none', async () => {
    const outcomes: Record<string, any> = {};
    for (const [name, scene] of Object.entries(scenes)) {
      const run = await runCli(['submit', scene, '--validate-only', '--json', '--new'], { env: cli.env, timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      outcomes[name] = parseSubmissions(run.stdout)[0];
    }
    expect(outcomes.wobble.state).toBe('validated');
    expect(outcomes.wobble.warnings).toEqual([
      { code: 'python-driver', message: `${DRIVER}: this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.` },
      { code: 'python-module', message: `${MODULE} in your Blender, not here: this farm does not run scene Python, so what it sets up (functions for drivers, handlers) is missing.` },
    ]);
    expect(outcomes.wobble.review.warnings).toEqual(outcomes.wobble.warnings.map((w: { message: string }) => w.message));
    for (const name of ['simple', 'plain']) {
      expect(outcomes[name].warnings, name).toEqual([]);
      expect(JSON.stringify(outcomes[name]), name).not.toMatch(/Python/);
    }
  }, 240_000);

  it('`submit` names them before the render; on this node the driver scene completes with a warning naming the driver in `status`', async () => {
    const run = await runCli(['submit', scenes.wobble, '--yes', '--new', '--wait', '--frames', '1'], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const told = run.stdout.split('\n').filter((l) => /Python|rig_wobble/.test(l));
    expect(told).toEqual([`  ! ${DRIVER}: this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.`, expect.stringContaining(`  ! ${MODULE} in your Blender`)]);
    expect(run.stdout).toContain('wobble.blend: Blender reported an error while rendering: “Error in PyDriver: expression failed: wobble(frame)”.');
    const [record] = (await cli.journal()).filter((r) => r.step === 'completed' || r.step === 'downloaded');
    const status = await runCli(['status', record!.jobId!], { env: cli.env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Status +completed/m);
    expect(status.stdout).toContain(`  ! ${DRIVER}: this farm does not run scene Python`);
    expect(status.stdout).toContain('  ! Blender reported an error while rendering: “Error in PyDriver: expression failed: wobble(frame)”.');
    const json = JSON.parse((await runCli(['status', record!.jobId!, '--json'], { env: cli.env })).stdout);
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['python-driver', 'python-module', 'blender-errors']);
  }, 240_000);
});

describe.skipIf(!blenderPath)('a node started with --trust-python (real `node serve`, real Blender)', () => {
  let work: string;
  let served: { child: ChildProcess; url: string; output: () => string } | null = null;

  afterAll(async () => {
    served?.child.kill('SIGTERM');
    if (served && served.child.exitCode === null) await new Promise((resolve) => served!.child.once('exit', resolve));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('runs the driver: the review says so, and the frames are pixel-identical to `blender -b -y` in place', async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-cli-trusted-'));
    const scenes = await makePythonScenes(blenderPath!, work);
    await renderTrustingInPlace(blenderPath!, scenes.wobble, join(work, 'inplace', 'shot_'), 1, 2);
    const inPlace = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, 'inplace', `shot_000${n}.png`)))));
    await renderInPlace(blenderPath!, scenes.wobble, join(work, 'untrusted', 'shot_'), 1, 1);
    const untrusted = decodePng(await readFile(join(work, 'untrusted', 'shot_0001.png')));
    expect(untrusted.data.equals(inPlace[0]!.data), 'the driver moves the plane: without scene Python the frame differs').toBe(false);
    const data = join(work, 'node');
    served = await startServeProcess(['--port', '0', '--data', data, '--blender', blenderPath!, '--trust-python']);
    expect(served.output()).toContain("warning: --trust-python: Blender runs each scene's own Python on this node");
    const { key } = await servedApi(data, 'trusted');
    const cli = await cliSetup(served.url, key);

    const out = join(work, 'out');
    const run = await runCli(['submit', scenes.wobble, '--yes', '--new', '--json', '--download', out], { env: cli.env, timeoutMs: 170_000 });
    expect(run.code, run.stderr).toBe(0);
    const [outcome] = parseSubmissions(run.stdout);
    expect(outcome.state).toBe('downloaded');
    expect(outcome.warnings).toEqual([
      { code: 'python-runs', message: `${DRIVER}: this farm runs scene Python, so it is driven as in your Blender.` },
      { code: 'python-runs', message: 'Text `rig_wobble.py` runs as a module here, as in your Blender.' },
    ]);
    await expectSameFrames(outcome.downloadedTo, ['shot_0001.png', 'shot_0002.png'], inPlace);
  }, 300_000);
});
