import { createServer, type Server } from 'node:http';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectBlender, installAddon, setAddonEnabled } from '../../src/core/addon';
import { requireBlender } from '../helpers/blender';
import { ROOT } from '../helpers/cli';
import { deadPid } from '../helpers/dead-pid';
import { makeAddonScene, run } from './helpers/addon-setup';

const blenderPath = requireBlender();
const NOT_FOUND_LINE = /^Renderdrop not found: install the Renderdrop app, or set the renderdrop command in the add-on's preferences\. Tried: /;

/** A stand-in for the app's hand-over listener: 202 for its token, 401 for any other. */
interface FakeApp {
  url: string;
  token: string;
  received: { authorization: string | undefined; body: unknown }[];
  /** Answer the next requests with this refusal instead (status and one-line reason). */
  refusal: { status: number; error: string } | null;
  /** What `GET /handover/submissions/sub-1` answers, one after the other (the last one stays). */
  progress: object[];
  progressReads: number;
  server: Server;
}

/** A 1×1 PNG, as a preview the app hands the add-on. */
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function fakeApp(): Promise<FakeApp> {
  const app: Omit<FakeApp, 'url' | 'server'> = { token: 'secret-token-of-the-app', received: [], refusal: null, progress: [], progressReads: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST') app.received.push({ authorization: req.headers.authorization, body: JSON.parse(body || 'null') });
      if (app.refusal) {
        res.writeHead(app.refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify({ accepted: false, error: app.refusal.error }));
        return;
      }
      const authorised = req.headers.authorization === `Bearer ${app.token}`;
      if (req.method === 'GET' && req.url?.split('?')[0] === '/handover/submissions/sub-1' && authorised) {
        app.progressReads += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(app.progress[Math.min(app.progressReads, app.progress.length) - 1]));
        return;
      }
      res.statusCode = req.method === 'POST' && req.url === '/handover' && authorised ? 202 : 401;
      res.end(res.statusCode === 202 ? JSON.stringify({ accepted: true, submissionId: 'sub-1' }) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(app, { url: `http://127.0.0.1:${port}/handover`, server });
}

describe.skipIf(!blenderPath)('the add-on hands the scene to a running Renderdrop app (real Blender)', () => {
  let work: string;
  let scene: string;
  let config: string;
  let app: FakeApp;
  let env: NodeJS.ProcessEnv;

  const send = async () => {
    const script = join(ROOT, 'test', 'fixtures', 'blender', 'drive-addon-session.py');
    const ran = await run(blenderPath!, ['-b', scene, '--python-exit-code', '1', '--python', script, '--', 'send'], env);
    const line = ran.stdout.split('\n').find((l) => l.startsWith('STATE '));
    if (ran.code !== 0 || !line) throw new Error(`the add-on's session failed:\n${ran.stdout}\n${ran.stderr}`);
    return JSON.parse(line.slice('STATE '.length));
  };
  const writeHandover = async (content: object, mode = 0o600) => {
    const file = join(config, 'handover.json');
    await writeFile(file, JSON.stringify(content));
    await chmod(file, mode);
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-addon-handover-'));
    scene = (await makeAddonScene(blenderPath!, work)).scene;
    config = join(work, 'rd-config');
    await mkdir(config);
    env = { RENDERDROP_CONFIG_DIR: config, BLENDER_USER_SCRIPTS: join(work, 'scripts'), BLENDER_USER_CONFIG: join(work, 'config'), PATH: '/usr/bin:/bin' };
    await Promise.all([mkdir(env.BLENDER_USER_SCRIPTS!), mkdir(env.BLENDER_USER_CONFIG!)]);
    const blender = await inspectBlender(blenderPath!, { env: { ...process.env, ...env } });
    await installAddon(blender!, { cli: null });
    expect(await setAddonEnabled(blender!, true, { env: { ...process.env, ...env } })).toBe(true);
    app = await fakeApp();
  });
  beforeEach(() => {
    app.received.length = 0;
    app.refusal = null;
    app.progress = [{ submissionId: 'sub-1', phase: 'review', jobId: null }];
    app.progressReads = 0;
  });
  afterAll(async () => {
    app?.server.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('POSTs the saved scene\'s absolute path with the app\'s secret; the app takes it', async () => {
    await writeHandover({ version: 1, url: app.url, token: app.token, pid: process.pid });
    const state = await send();
    expect(state).toMatchObject({ phase: 'app', message: 'Sent to Renderdrop: review it there.' });
    expect(app.received).toEqual([{ authorization: `Bearer ${app.token}`, body: { scene } }]);
  });

  it('follows the handed-over scene through the app: frames and the app\'s time left in the status bar, then its frames folder', async () => {
    await writeHandover({ version: 1, url: app.url, token: app.token, pid: process.pid });
    const frames = join(work, 'frames-from-app');
    await mkdir(frames, { recursive: true });
    app.progress = [
      { submissionId: 'sub-1', phase: 'review', jobId: null },
      { submissionId: 'sub-1', jobId: 'job-1', status: 'rendering', completedFrames: 1, totalFrames: 2, clock: { state: 'rendering', timeLeftSeconds: 42 }, framesDir: null, previewKey: 'r:1', preview: `data:image/png;base64,${ONE_PIXEL_PNG}` },
      { submissionId: 'sub-1', jobId: 'job-1', status: 'completed', completedFrames: 2, totalFrames: 2, clock: { state: 'ended', timeLeftSeconds: null }, framesDir: null },
      { submissionId: 'sub-1', jobId: 'job-1', status: 'completed', completedFrames: 2, totalFrames: 2, clock: { state: 'ended', timeLeftSeconds: null }, framesDir: frames },
    ];
    const script = join(ROOT, 'test', 'fixtures', 'blender', 'drive-addon-session.py');
    const ran = await run(blenderPath!, ['-b', scene, '--python-exit-code', '1', '--python', script, '--', 'send-follow'], env);
    const line = ran.stdout.split('\n').find((l) => l.startsWith('FINAL '));
    expect(line, ran.stdout + ran.stderr).toBeDefined();
    const final = JSON.parse(line!.slice('FINAL '.length));
    expect(final).toMatchObject({ phase: 'completed', framesDir: frames, done: 2, total: 2 });
    expect(final.statusTexts).toContain('Renderdrop: 1/2 frames, 42 s left');
    expect(final.preview, 'the last frame the app had was shown in the panel').not.toBeNull();
    expect((await readFile(final.preview)).subarray(1, 4).toString()).toBe('PNG');
    expect(final.started.filter((name: string) => ['status', 'watch', 'submit'].includes(name))).toEqual([]);
  });

  it('says in one line when the app refuses the secret, and does not fall back', async () => {
    await writeHandover({ version: 1, url: app.url, token: 'an-old-token', pid: process.pid });
    const state = await send();
    expect(state).toMatchObject({ phase: 'idle', message: 'The Renderdrop app refused the scene: restart the app, then send it again.' });
    expect(app.received).toHaveLength(1);
  });

  it('says in one line why the app refused the scene, and does not fall back', async () => {
    await writeHandover({ version: 1, url: app.url, token: app.token, pid: process.pid });
    app.refusal = { status: 422, error: 'No Blender was found for "This computer".\nInstall it.' };
    const state = await send();
    expect(state).toMatchObject({ phase: 'idle', message: 'Renderdrop: No Blender was found for "This computer". Install it.' });
    expect(app.received).toHaveLength(1);
  });

  it('falls back to the command when the app is gone, or the file is not only this user\'s', async () => {
    await writeHandover({ version: 1, url: app.url, token: app.token, pid: deadPid() });
    expect(await send()).toMatchObject({ phase: 'idle', message: expect.stringMatching(NOT_FOUND_LINE) });
    await writeHandover({ version: 1, url: app.url, token: app.token, pid: process.pid }, 0o644);
    expect(await send()).toMatchObject({ phase: 'idle', message: expect.stringMatching(NOT_FOUND_LINE) });
    await rm(join(config, 'handover.json'));
    expect(await send()).toMatchObject({ phase: 'idle', message: expect.stringMatching(NOT_FOUND_LINE) });
    expect(app.received).toEqual([]);
  });
});
