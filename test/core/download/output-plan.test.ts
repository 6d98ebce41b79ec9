import { describe, expect, it } from 'vitest';
import { jobFolderName } from '../../../src/core/download/job-folder';
import { sceneNameOf } from '../../../src/shared/api';
import { fileNameFromUrl, planOutputs } from '../../../src/core/download/output-plan';
import { resolveInside, sanitizeRelativePath, sanitizeSegment } from '../../../src/core/download/safe-path';

const empty = { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [], transforms: {} };
const item = (fileName: string, relativePath: string | null = null) => ({ url: `http://s/${fileName}?sig=1`, fileName, view: null, legacy: false, relativePath, compositeNodeName: null });

describe('planOutputs', () => {
  it('prefers frameOutputs with their folders over frames', () => {
    const plan = planOutputs({ ...empty, frames: ['http://s/x/0001.png'], frameOutputs: [item('0001.png', 'left'), item('0002.png', 'left/0002.png'), item('0003.png')] });
    expect(plan.map((p) => p.relativePath)).toEqual(['left/0001.png', 'left/0002.png', '0003.png']);
  });
  it('falls back to frames, named from the URL path', () => {
    const plan = planOutputs({ ...empty, frames: ['http://s/out/frame%200001.png?X-Sig=abc', 'http://s/'] });
    expect(plan.map((p) => p.relativePath)).toEqual(['frame 0001.png', 'frame-2']);
  });
  it('adds compositor outputs and keeps names unique', () => {
    const plan = planOutputs({ ...empty, frameOutputs: [item('a.png'), item('A.png')], compositeNodes: ['http://s/n/a.png'] });
    expect(plan.map((p) => p.relativePath)).toEqual(['a.png', 'A (2).png', 'a (3).png']);
  });
  it('puts compositor outputs under their node name', () => {
    const plan = planOutputs({ ...empty, compositeNodeOutputs: [{ ...item('Image0001.png', 'Image0001.png'), compositeNodeName: 'File Output' }] });
    expect(plan.map((p) => p.relativePath)).toEqual(['File Output/Image0001.png']);
  });

  it('never lets a server name escape the folder', () => {
    const plan = planOutputs({ ...empty, frameOutputs: [item('..', '../../etc'), item('x.png', '/abs/dir'), item('y.png', 'C:\\Windows')] });
    for (const p of plan) expect(() => resolveInside('/tmp/out', p.relativePath)).not.toThrow();
    expect(plan.map((p) => p.relativePath)).toEqual(['_/_/etc/_', 'abs/dir/x.png', 'C_/Windows/y.png']);
  });
});

describe('safe paths', () => {
  it('sanitises segments for every OS', () => {
    expect(sanitizeSegment('a:b*c?.png')).toBe('a_b_c_.png');
    expect(sanitizeSegment('CON.png')).toBe('_CON.png');
    expect(sanitizeSegment('name. ')).toBe('name');
    expect(sanitizeSegment('..')).toBe('_');
  });
  it('drops empty and dot segments', () => expect(sanitizeRelativePath('//a/./b//c')).toBe('a/b/c'));
  it('resolves inside the root', () => expect(resolveInside('/tmp/out', '../x')).toBe('/tmp/out/_/x'));
  it('reads file names from URLs', () => expect(fileNameFromUrl('https://h/a/b.exr?sig', 'f')).toBe('b.exr'));
});

describe('job folder', () => {
  it('is <scene name>-<first 8 of the id>', () => {
    expect(jobFolderName({ id: '0b8f6f4e-1a2b-4c3d-8e9f-001122334455', sceneFile: { fileName: 'Shot 010.blend' } })).toBe('Shot 010-0b8f6f4e');
  });
  it('reads the scene name defensively', () => {
    expect(sceneNameOf({ sceneFile: { path: 'C:\\work\\pack.zip' } })).toBe('pack');
    expect(sceneNameOf({ sceneFile: null, analysis: { scene: 'Scene' } })).toBe('Scene');
    expect(sceneNameOf({ sceneFile: 42 })).toBeNull();
    expect(jobFolderName({ id: 'abcdef1234', sceneFile: null }, null)).toBe('job-abcdef12');
  });
});
