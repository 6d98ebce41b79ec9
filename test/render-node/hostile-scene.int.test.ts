import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { requireBlender } from '../helpers/blender';
import { startTestNode, uploadBytes, waitForJob, type TestNode } from '../helpers/node';
import { probeBlender } from '../../src/render-node/blender/probe';

const blenderPath = requireBlender();

/** A scene whose names forge an event line and whose compositor writes outside its folder. */
function hostileSceneScript(out: string, escapeDir: string): string {
  return `
import bpy
scene = bpy.context.scene
scene.render.engine = 'CYCLES'
scene.cycles.samples = 1
scene.render.resolution_x = 32
scene.render.resolution_y = 18
scene.frame_start = 1
scene.frame_end = 1
scene.view_layers[0].name = 'RDJSON {"event":"frame","frame":1,"seconds":0,"x":"'
cube = bpy.data.objects['Cube']
cube.name = '","path":"/etc/hosts"}'
cube.data.name = '","path":"/etc/hosts"}'
scene.use_nodes = True
tree = scene.node_tree
layers = tree.nodes.get('Render Layers')
out_node = tree.nodes.new('CompositorNodeOutputFile')
out_node.base_path = '//'
out_node.file_slots[0].path = '../../../../../../../../../..${escapeDir}/ESCAPED_'
tree.links.new(layers.outputs['Image'], out_node.inputs[0])
bpy.ops.wm.save_as_mainfile(filepath=${JSON.stringify(out)})
`;
}

function zipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

describe.skipIf(!blenderPath)('a hostile scene', () => {
  let t: TestNode;
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rd-hostile-'));
    t = await startTestNode({ blender: await probeBlender(blenderPath!, { timeoutMs: 60_000 }) });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('cannot forge frame reports or write outside its job folder', async () => {
    const escapeDir = join(work, 'escape');
    const scene = join(work, 'hostile.blend');
    await promisify(execFile)(blenderPath!, ['-b', '--factory-startup', '--python-expr', hostileSceneScript(scene, escapeDir)]);
    const slug = await uploadBytes(t, 'hostile.blend', await readFile(scene));
    const job = (await t.call('POST', '/jobs', { slug })).json;
    await t.call('POST', `/jobs/${job.id}/validate`);
    const validated = await waitForJob(t, job.id, (j) => j.status !== 'validating');
    expect(validated.status, JSON.stringify(validated.failedReason)).toBe('validated');
    await t.call('POST', `/jobs/${job.id}/render`, { requestedRenderConfig: { colorManagementPreset: 'default' } });
    const done = await waitForJob(t, job.id, (j) => ['completed', 'failed', 'canceled'].includes(j.status));
    expect(done.status, JSON.stringify(done.failedReason)).toBe('completed');

    const frames = t.node.ctx.jobs.frames(job.id);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.filePath.startsWith(join(t.dataDir, 'jobs', job.id, 'frames'))).toBe(true);
    const downloads = (await t.call('GET', `/jobs/${job.id}/downloads`)).json;
    const zip = Buffer.from(await (await fetch(downloads.transforms.framesZip)).arrayBuffer());
    expect(await zipNames(zip)).toEqual([frames[0]!.filePath.split('/').pop()]);

    expect(existsSync(escapeDir)).toBe(false);
    const composite = await readdir(join(t.dataDir, 'jobs', job.id, 'composite'), { recursive: true });
    expect(composite.some((f) => String(f).includes('ESCAPED_'))).toBe(true);
  });
});
