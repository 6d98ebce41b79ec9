import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAddon, inspectBlender, setAddonEnabled } from '../../src/core/addon';
import { probeBlender } from '../../src/render-node/blender/probe';
import { requireBlender } from '../helpers/blender';
import { blenderInfo } from '../helpers/blender-info';
import { startTestNode, type TestNode } from '../helpers/node';
import { renderInPlace } from '../helpers/pack-corpus';
import { decodePng, hasColour, type Pixels } from '../helpers/png-pixels';
import { expectSameFrames } from '../helpers/same-frames';
import { cliSetup, nodeJobs, type CliSetup } from '../cli/helpers/cli-setup';
import { ROOT } from '../helpers/cli';
import { HostileServer } from '../helpers/hostile-server';
import { startHost } from '../host/host-harness';
import { buildCli, makeAddonScene, run, runBuiltCli } from './helpers/addon-setup';
import { makePythonScenes } from '../helpers/python-scenes';

const blenderPath = requireBlender();

const SUBMIT = 'import bpy; bpy.ops.renderdrop.submit()';

describe.skipIf(!blenderPath)('the Blender add-on, installed by renderdrop, in background mode (real Blender, real node)', () => {
  let work: string;
  let made: Awaited<ReturnType<typeof makeAddonScene>>;
  let t: TestNode;
  let cli: CliSetup;
  let blenderEnv: NodeJS.ProcessEnv;
  let inPlace: Pixels[];

  /** Runs Blender in the background with the add-on's user folders and `extra` environment. */
  const blender = (args: string[], extra: NodeJS.ProcessEnv = {}) => run(blenderPath!, ['-b', ...args], { ...blenderEnv, ...extra });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-addon-'));
    await buildCli();
    made = await makeAddonScene(blenderPath!, work);
    await renderInPlace(blenderPath!, made.scene, join(work, 'inplace', 'frame_'), 1, 2);
    inPlace = await Promise.all([1, 2].map(async (n) => decodePng(await readFile(join(work, 'inplace', `frame_000${n}.png`)))));
    for (const key of ['grid', 'prop']) expect(hasColour(inPlace[0]!, made.colours[key]!), `Blender in place shows ${key}`).toBe(true);
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
    cli = await cliSetup(t.url, t.key);
    blenderEnv = { ...cli.env, BLENDER_USER_SCRIPTS: join(work, 'user', 'scripts'), BLENDER_USER_CONFIG: join(work, 'user', 'config') };
    await Promise.all([mkdir(blenderEnv.BLENDER_USER_SCRIPTS!, { recursive: true }), mkdir(blenderEnv.BLENDER_USER_CONFIG!, { recursive: true })]);
    const installed = await runBuiltCli(['addon', 'install', '--blender', blenderPath!], blenderEnv);
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/^Blender \d+\.\d+\.\d+ \(.+\): installed \(\d+\.\d+\.\d+\), enabled\. Folder: .+renderdrop_blender$/m);
  });
  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('sends a textured scene with a library through the renderdrop command; the frames match Blender in place', async () => {
    const out = join(work, 'frames');
    const sent = await blender([made.scene, '--python-expr', `import bpy; bpy.ops.renderdrop.submit(download=${JSON.stringify(out)})`]);
    const jobLine = /^Renderdrop job: ([0-9a-f-]{36})$/m.exec(sent.stdout);
    expect(jobLine, sent.stdout + sent.stderr).not.toBeNull();
    expect(sent.stderr).not.toMatch(/Traceback/);
    const [job] = await nodeJobs(t);
    expect(job).toMatchObject({ id: jobLine![1], status: 'completed', sceneFile: { fileName: 'shot.zip', scenePath: 'shot.blend' } });
    const folder = /^Renderdrop frames: (.+)$/m.exec(sent.stdout)![1]!;
    expect(folder.startsWith(out)).toBe(true);
    await expectSameFrames(folder, ['shot_0001.png', 'shot_0002.png'], inPlace);
  });

  it('prints the job id and leaves the render to the farm without waiting', async () => {
    const sent = await blender([made.scene, '--python-expr', SUBMIT]);
    const id = /^Renderdrop job: ([0-9a-f-]{36})$/m.exec(sent.stdout)?.[1];
    expect(id, sent.stdout + sent.stderr).toBeDefined();
    const job = (await t.call('GET', `/jobs/${id}`)).json;
    expect(['booting', 'rendering', 'finalizing', 'completed']).toContain((job.data ?? job).status);
  });

  it('validates through the command, shows what it found, renders on Start and follows the job to its frames', async () => {
    const script = join(ROOT, 'test', 'fixtures', 'blender', 'drive-addon-session.py');
    const ran = await blender([made.scene, '--python-exit-code', '1', '--python', script, '--', 'send-start'], { HOME: join(work, 'home') });
    const line = (name: string) => JSON.parse(ran.stdout.split('\n').find((l) => l.startsWith(`${name} `))!.slice(name.length + 1));
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const sent = line('STATE');
    expect(sent.phase).toBe('review');
    const rows = Object.fromEntries(sent.review.rows);
    expect(rows).toMatchObject({ Frames: '1-2 (2 frames)', Resolution: '64 × 36 at 100% = 64 × 36 px', Samples: '4' });

    const final = line('FINAL');
    expect(final).toMatchObject({ phase: 'completed', jobId: sent.review.jobId, done: 2, total: 2 });
    expect(final.statusTexts.length).toBeGreaterThan(0);
    expect(final.statusTexts.every((text: string) => /^Renderdrop: (\d+\/2 frames(, \d+ (s|min) left)?|\w+)$|^Starting the render/.test(text)), final.statusTexts.join(' | ')).toBe(true);
    expect(final.preview, 'the last rendered frame was fetched for the panel').not.toBeNull();
    expect(decodePng(await readFile(final.preview)).width).toBeGreaterThan(0);
    expect((await readdir(final.framesDir)).sort()).toEqual(['shot_0001.png', 'shot_0002.png']);
    expect(ran.stdout).toContain(`Info: Rendered: 2 frames in ${final.framesDir}`);
    const following = final.started.slice(final.started.indexOf('submit', 1) + 1);
    expect(following, final.started.join(' ')).toEqual(['watch', 'status', 'download']);
  });

  it("tells the job's warnings: on the console in background mode, in the Info area from the panel", async () => {
    const root = join(work, 'python');
    await mkdir(root);
    const scenes = await makePythonScenes(blenderPath!, root);
    const driver = 'Driver on Cube › Location Z uses Python (`wobble(frame)`): this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.';
    const rendered = 'Blender reported an error while rendering: “Error in PyDriver: expression failed: wobble(frame)”.';
    const sent = await blender([scenes.wobble, '--python-expr', 'import bpy; bpy.ops.renderdrop.submit(wait=True)']);
    const told = sent.stdout.split('\n').filter((l) => l.startsWith('Renderdrop warning: '));
    expect(told, sent.stdout + sent.stderr).toEqual([`Renderdrop warning: ${driver}`, expect.stringMatching(/^Renderdrop warning: Text `rig_wobble\.py` runs as a module/), expect.stringContaining(rendered)]);

    const script = join(ROOT, 'test', 'fixtures', 'blender', 'drive-addon-session.py');
    const ran = await blender([scenes.wobble, '--python-exit-code', '1', '--python', script, '--', 'send-start'], { HOME: join(work, 'home') });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const reported = ran.stdout.split('\n').filter((l) => l.startsWith('Warning: '));
    expect(reported).toEqual([`Warning: ${driver}`, expect.stringMatching(/^Warning: Text `rig_wobble\.py` runs as a module/), expect.stringContaining(rendered)]);
  });

  it('refuses a scene that was never saved, in one line', async () => {
    const sent = await blender(['--python-expr', SUBMIT]);
    expect(sent.stderr.split('\n')).toContain('Save the scene first: the farm renders the file on disk.');
    expect(sent.stdout + sent.stderr).not.toMatch(/Traceback|Renderdrop job/);
  });

  it('refuses a scene with unsaved changes, in one line', async () => {
    const sent = await blender([made.scene, '--python-expr', `import bpy; bpy.data.objects.new("Extra", None); bpy.ops.ed.undo_push(message="add"); ${SUBMIT}`]);
    expect(sent.stderr.split('\n')).toContain('The scene has unsaved changes: save it first, the farm renders the file on disk.');
  });

  it('says in one line when the server refuses the key', async () => {
    const sent = await blender([made.scene, '--python-expr', SUBMIT], { RENDERDROP_API_KEY: 'rd_wrong_key_0000000000000000' });
    expect(sent.stderr.split('\n')).toContain("The server refused Renderdrop's key: update it in Renderdrop's Settings.");
    expect(sent.stdout + sent.stderr).not.toMatch(/Traceback|Renderdrop job/);
  });

  it('says in one line when neither the app nor a node with a stored key is there for "This computer"', async () => {
    const config = await mkdtemp(join(tmpdir(), 'rd-addon-nokey-'));
    const sent = await blender([made.scene, '--python-expr', SUBMIT], { RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '', RENDERDROP_CONFIG_DIR: config });
    expect(sent.stderr.split('\n').some((line) => line.startsWith('The Renderdrop app is not running, and no key is stored for a render node at http://127.0.0.1:8787.'))).toBe(true);
    expect(sent.stdout + sent.stderr).not.toMatch(/Traceback|Renderdrop job/);
    await rm(config, { recursive: true, force: true });
  });

  it('reaches "This computer" of the running app with no key typed and no variable, also when 8787 was taken', async () => {
    const squatter = await HostileServer.start();
    const app = await startHost({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }), localNodePort: Number(new URL(squatter.url).port) });
    try {
      const sent = await blender([made.scene, '--python-expr', SUBMIT], { RENDERDROP_API_KEY: '', RENDERDROP_BASE_URL: '', RENDERDROP_CONFIG_DIR: app.dir });
      const id = /^Renderdrop job: ([0-9a-f-]{36})$/m.exec(sent.stdout)?.[1];
      expect(id, sent.stdout + sent.stderr).toBeDefined();
      await app.host.ready();
      expect((await app.value('jobs.refresh', {})).jobs.map((j) => j.id)).toContain(id);
      expect(squatter.requests).toEqual([]);
    } finally {
      await app.close();
      await squatter.close();
    }
  });

  it('installed through the app\'s Settings, it records the app\'s own command and submits with the app closed', async () => {
    const user = { BLENDER_USER_SCRIPTS: join(work, 'app-user', 'scripts'), BLENDER_USER_CONFIG: join(work, 'app-user', 'config') };
    await Promise.all([mkdir(user.BLENDER_USER_SCRIPTS, { recursive: true }), mkdir(user.BLENDER_USER_CONFIG, { recursive: true })]);
    const command = [process.execPath, join(ROOT, 'bin', 'renderdrop.js')];
    const app = await startHost({ env: { ...process.env, ...user }, localNode: false, cliCommand: { command, env: { RENDERDROP_FROM_APP: '1' } } });
    try {
      const installed = await app.value('addon.install', { blender: blenderPath! });
      expect(installed, JSON.stringify(installed)).toMatchObject({ state: 'installed' });
    } finally {
      await app.close();
    }
    const record = JSON.parse(await readFile(join(user.BLENDER_USER_SCRIPTS, 'addons', 'renderdrop_blender', '.renderdrop-install.json'), 'utf8'));
    expect(record).toMatchObject({ cli: command, cliEnv: { RENDERDROP_FROM_APP: '1' } });
    const noRenderdropOnPath = (process.env.PATH ?? '').split(':').filter((dir) => !existsSync(join(dir, 'renderdrop'))).join(':');
    const sent = await blender([made.scene, '--python-expr', SUBMIT], { ...user, PATH: noRenderdropOnPath });
    expect(/^Renderdrop job: [0-9a-f-]{36}$/m.test(sent.stdout), sent.stdout + sent.stderr).toBe(true);

    await writeFile(join(user.BLENDER_USER_SCRIPTS, 'addons', 'renderdrop_blender', '.renderdrop-install.json'), JSON.stringify({ ...record, cli: ['/nowhere/renderdrop'] }));
    const lost = await blender([made.scene, '--python-expr', SUBMIT], { ...user, PATH: noRenderdropOnPath });
    expect(lost.stderr).toContain(
      "Renderdrop not found: install the Renderdrop app, or set the renderdrop command in the add-on's preferences. Tried: renderdrop on PATH (not there); the command of the Renderdrop that installed the add-on (the command it records is gone (/nowhere/renderdrop)).",
    );
  });

  it('says in one line when the scene fails validation, with the server\'s reason', async () => {
    const broken = join(work, 'broken-blender');
    await writeFile(broken, '#!/bin/sh\necho "Error: cannot open this file" >&2\nexit 1\n');
    await chmod(broken, 0o755);
    const failing = await startTestNode({ blender: blenderInfo({ path: broken }) });
    try {
      const sent = await blender([made.scene, '--python-expr', SUBMIT], { RENDERDROP_BASE_URL: failing.url, RENDERDROP_API_KEY: failing.key });
      const [job] = await nodeJobs(failing);
      expect(job.status).toBe('failed');
      const reason = String(job.failedReason.message);
      expect(reason.length).toBeGreaterThan(0);
      expect(sent.stderr.split('\n')).toContain(`The scene failed validation: ${reason}${reason.endsWith('.') ? '' : '.'}`);
      expect(sent.stdout + sent.stderr).not.toMatch(/Traceback|Renderdrop job/);
    } finally {
      await failing.stop();
    }
  });

  it('says in one line when Renderdrop is not found', async () => {
    const user = join(work, 'bare');
    const env = { BLENDER_USER_SCRIPTS: join(user, 'scripts'), BLENDER_USER_CONFIG: join(user, 'config') };
    const target = await inspectBlender(blenderPath!, { env: { ...process.env, ...env } });
    await Promise.all([mkdir(env.BLENDER_USER_SCRIPTS, { recursive: true }), mkdir(env.BLENDER_USER_CONFIG, { recursive: true })]);
    await installAddon(target!, { cli: null });
    expect(await setAddonEnabled(target!, true, { env: { ...process.env, ...env } })).toBe(true);
    const sent = await blender([made.scene, '--python-expr', SUBMIT], { ...env, PATH: '/usr/bin:/bin' });
    expect(sent.stderr.split('\n')).toContain(
      "Renderdrop not found: install the Renderdrop app, or set the renderdrop command in the add-on's preferences. Tried: renderdrop on PATH (not there); the command of the Renderdrop that installed the add-on (the install record names no command).",
    );
    expect(sent.stdout + sent.stderr).not.toMatch(/Traceback|Renderdrop job/);
  });
});
