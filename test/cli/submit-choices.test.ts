import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { sampleAnalysis } from '../fixtures/analysis';
import { FakeApi, type FakeApiOptions } from '../helpers/fake-api-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';
import { parseSubmissions } from './helpers/cli-setup';
import { testDeps, type TestDeps } from './helpers/test-deps';

const P = '/api/external/v1';
let api: FakeApi | null = null;

afterEach(async () => {
  await api?.server.close();
  api = null;
});

async function setup(options: FakeApiOptions = {}): Promise<{ api: FakeApi; t: TestDeps; run: (...args: string[]) => Promise<number> }> {
  api = await FakeApi.start(options);
  const t = testDeps({ RENDERDROP_BASE_URL: api.server.url, RENDERDROP_API_KEY: 'RJ-choices', RENDERDROP_CONFIG_DIR: await tempDir() });
  return { api, t, run: (...args) => main(['node', 'renderdrop', ...args], t.deps) };
}

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
