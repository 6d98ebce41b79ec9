import type { BlenderInfo } from '../../src/render-node/blender/probe';

/** What probing a Blender 3.4.1 on the CPU would find, with `over` in place of any of it. */
export function blenderInfo(over: Partial<BlenderInfo> = {}): BlenderInfo {
  return {
    path: '/usr/bin/blender',
    version: '3.4.1',
    versionParts: [3, 4, 1],
    cyclesDevices: ['CPU'],
    openImageDenoise: true,
    optix: false,
    viewTransforms: ['Standard', 'Filmic'],
    hasAces: false,
    eeveeUsable: null,
    displayDevices: ['sRGB'],
    looks: ['None'],
    colorSpaces: ['Linear'],
    ocioConfig: null,
    ...over,
  };
}
