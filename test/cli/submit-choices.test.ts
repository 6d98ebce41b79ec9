import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { sampleAnalysis } from '../fixtures/analysis';
import { FakeApi, type FakeApiOptions } from '../helpers/fake-api-server';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { folderZip } from '../helpers/folder-zip';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';
import { parseSubmissions } from './helpers/cli-setup';
import { testDeps, type TestDeps } from './helpers/test-deps';

const P = '/api/external/v1';
let api: FakeApi | null = null;

afterEach(async () => {
  await api?.server.close();
  api = null;
});

async function setup(options: FakeApiOptions = {}, stdin?: PassThrough): Promise<{ api: FakeApi; t: TestDeps; configDir: string; run: (...args: string[]) => Promise<number> }> {
  api = await FakeApi.start(options);
  const configDir = await tempDir();
  const t = testDeps({ RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-choices', RENDERDROP_CONFIG_DIR: configDir }, stdin ? { stdin } : {});
  return { api, t, configDir, run: (...args) => main(['node', 'renderdrop', ...args], t.deps) };
}

/** A terminal on which a person types each answer once its question (a pattern) has been asked on stderr. */
function terminalAnswering(t: () => TestDeps | null, ...script: [RegExp, string][]): PassThrough {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  let asked = 0;
  const timer = setInterval(() => {
    const next = script[asked];
    if (!next) return clearInterval(timer);
    const deps = t();
    if (!deps) return;
    const seen = deps.stderr().match(new RegExp(next[0].source, 'g'))?.length ?? 0;
    const before = script.slice(0, asked).filter(([pattern]) => pattern.source === next[0].source).length;
    if (seen > before) {
      input.write(`${next[1]}\n`);
      asked++;
    }
  }, 10);
  input.on('close', () => clearInterval(timer));
  return input;
}

const SHOTS = { 'shot A.blend': blendBytes(4_000), 'shot B.blend': blendBytes(5_000), 'lib/props.blend': blendBytes(300) };
const validateBodies = (fake: FakeApi) => [...fake.jobs.values()].flatMap((j) => j.validateBodies);

describe('submit when the scene needs a camera or view layer chosen', () => {
  it('shows the warning with the cameras and the option before anything renders, and --yes stops there', async () => {
    const { api, t, run } = await setup({ analysis: sampleAnalysis({ activeCamera: null, warnings: [{ code: 'no-active-camera', message: 'The scene has no active camera.' }] }) });
    const scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(5_000));
    expect(await run('submit', scene, '--yes', '--json')).toBe(EXIT.failure);
    expect(t.stderr()).toContain('! The scene has no active camera, so nothing can be rendered. Its cameras: Camera, CloseUp. Choose one with --camera, e.g. --camera Camera.');
    const [result] = parseSubmissions(t.stdout());
    expect(result).toMatchObject({ state: 'error', error: { kind: 'invalid-config' } });
    expect(result.error.message).toContain('no active camera, so nothing was rendered');
    expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(0);
  });

  it('renders with the camera and view layer given on the command line', async () => {
    const noneEnabled = [{ name: 'ViewLayer', useForRender: false }, { name: 'Background', useForRender: false }];
    const { api, t, run } = await setup({ analysis: sampleAnalysis({ activeCamera: null, viewLayers: noneEnabled }) });
    const scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(5_000));
    expect(await run('submit', scene, '--yes', '--camera', 'CloseUp', '--view-layer', 'Background')).toBe(EXIT.ok);
    expect(t.stdout()).toMatch(/View layer +Background \(scene: ViewLayer\)/);
    expect(t.stdout()).not.toContain('no active camera');
    const [entry] = [...api.jobs.values()];
    expect(entry!.renderBodies).toEqual([{ requestedRenderConfig: { colorManagementPreset: 'default', activeCamera: 'CloseUp', activeViewLayer: 'Background' } }]);
  });

  it('warns that no view layer renders and offers --view-layer, rendering with --yes all the same', async () => {
    const noneEnabled = [{ name: 'ViewLayer', useForRender: false }];
    const { api, t, run } = await setup({ analysis: sampleAnalysis({ viewLayers: noneEnabled }) });
    const scene = await writeScene(await tempDir(), 'shot.blend', blendBytes(5_000));
    expect(await run('submit', scene, '--yes')).toBe(EXIT.ok);
    expect(t.stdout()).toContain('! No view layer of the scene is enabled for rendering. Its view layers: ViewLayer. Choose one with --view-layer, e.g. --view-layer ViewLayer.');
    expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(1);
  });

  it('refuses an empty --view-layer as a wrong command line', async () => {
    const { run, t } = await setup();
    expect(await run('submit', 'shot.blend', '--view-layer', ' ')).toBe(EXIT.usage);
    expect(t.stderr()).toContain('--view-layer needs the name of a view layer of the scene.');
  });
});

describe('submit of a zip that holds several scenes', () => {
  it('without --scene and without a terminal refuses at preflight, listing the scenes, and sends nothing', async () => {
    const { api, t, run } = await setup();
    const zip = await folderZip('shots.zip', SHOTS);
    expect(await run('submit', zip, '--yes', '--json')).toBe(EXIT.usage);
    const [result] = parseSubmissions(t.stdout());
    expect(result).toMatchObject({ state: 'error', submissionId: null, error: { kind: 'usage' } });
    expect(result.error.message).toBe(
      'shots.zip holds several scenes: shot A.blend, shot B.blend. There is no terminal to ask which one to render on. Name the one to render with --scene, e.g. --scene "shot A.blend".',
    );
    expect(api.server.requests).toEqual([]);
  });

  it('renders the scene --scene names', async () => {
    const { api, run } = await setup();
    const zip = await folderZip('shots.zip', SHOTS);
    expect(await run('submit', zip, '--yes', '--scene', 'shot B.blend')).toBe(EXIT.ok);
    expect(validateBodies(api)).toEqual([{ scenePath: 'shot B.blend' }]);
  });

  it('asks on a terminal, by number, and renders the scene chosen', async () => {
    let deps: TestDeps | null = null;
    const stdin = terminalAnswering(() => deps, [/Number or name/, '3'], [/Number or name/, '2'], [/Render .*\?/, 'y']);
    const { api, t, run } = await setup({}, stdin);
    deps = t;
    const zip = await folderZip('shots.zip', SHOTS);
    expect(await run('submit', zip)).toBe(EXIT.ok);
    expect(t.stderr()).toContain('shots.zip holds several scenes: shot A.blend, shot B.blend. Which one should render?\n  1) shot A.blend\n  2) shot B.blend\n');
    expect(t.stderr()).toContain('Please answer with a number from 1 to 2.');
    expect(validateBodies(api)).toEqual([{ scenePath: 'shot B.blend' }]);
    expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(1);
  });

  it('refuses --scene that names no scene of the zip, or a .blend given as the file', async () => {
    const { t, run } = await setup();
    const zip = await folderZip('shots.zip', SHOTS);
    const blend = await writeScene(await tempDir(), 'single.blend', blendBytes(500));
    expect(await run('submit', zip, blend, '--yes', '--scene', 'shot C.blend')).toBe(EXIT.failure);
    expect(t.stdout()).toContain('shots.zip has no scene "shot C.blend". It holds: ');
    expect(t.stdout()).toContain('single.blend is a .blend file, not a zip: there is no scene inside it to choose.');
  });

  it('resume asks for the scene of a submission recorded without one, and refuses without a terminal', async () => {
    const { api, configDir, run, t } = await setup();
    const zip = await folderZip('shots.zip', SHOTS);
    const journal = new SubmissionJournal({ dataDir: configDir });
    await recordForFile(journal, { filePath: zip, baseUrl: api.server.url, profileId: null });
    expect(await run('resume', '--yes')).toBe(EXIT.usage);
    expect(t.stdout()).toContain('shots.zip holds several scenes: shot A.blend, shot B.blend. There is no terminal to ask which one to render on. Run `renderdrop resume` on a terminal to choose, or submit the zip again with --scene "shot A.blend".');
    expect(api.count('PUT', /^\/storage\//)).toBe(1);
    expect((await journal.listUnfinished())[0]).toMatchObject({ step: 'uploaded', ending: null });
  });

  it('gives the view layer and camera of the scene chosen to its render', async () => {
    const { api, run } = await setup({ analysis: sampleAnalysis() });
    const zip = await folderZip('shots.zip', SHOTS);
    expect(await run('submit', zip, '--yes', '--scene', 'shot A.blend', '--camera', 'CloseUp')).toBe(EXIT.ok);
    expect(validateBodies(api)).toEqual([{ scenePath: 'shot A.blend' }]);
    expect([...api.jobs.values()][0]!.renderBodies).toEqual([{ requestedRenderConfig: { colorManagementPreset: 'default', activeCamera: 'CloseUp' } }]);
  });
});
