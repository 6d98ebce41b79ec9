import type { RenderConfig, SceneAnalysis } from '../../shared/api';
import { adjusted, change, unchanged, type SettingChoice } from './adjustment';
import type { NodeCapabilities } from './node-capabilities';
import { engineName, needsDrawing } from './blender-choice';

/** Whether and how frames are denoised. */
export interface DenoiseChoice {
  enabled: boolean;
  denoiser: string | null;
}

/** The render engine: the requested or the scene's, with Cycles for an engine that draws with the GPU where Blender cannot draw. */
export function adjustEngine(requested: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities): SettingChoice<string> {
  const engine = requested.renderEngine ?? analysis.engine;
  if (needsDrawing(engine) && caps.eeveeUsable === false) {
    return adjusted('renderEngine', engine, 'CYCLES', `This farm's Blender cannot render ${engineName(engine)} here (no GPU display context); rendered with Cycles.`);
  }
  return unchanged(engine);
}

/** The Cycles device: the requested one when this node has it, else the CPU. */
export function adjustDevice(requested: RenderConfig, caps: NodeCapabilities): SettingChoice<string> {
  const device = requested.computeDeviceType === undefined || requested.computeDeviceType === 'NONE' ? 'CPU' : requested.computeDeviceType;
  if (device !== 'CPU' && !caps.cyclesDevices.includes(device)) {
    return adjusted('computeDeviceType', device, 'CPU', `This node has no ${device} device; rendered on the CPU.`);
  }
  return unchanged(device);
}

/** The number of GPUs: none when rendering on the CPU. */
export function adjustGpuCount(requested: RenderConfig, device: string): SettingChoice<number> {
  const gpuCount = requested.gpuCount ?? 0;
  if (device === 'CPU' && gpuCount > 0) return adjusted('gpuCount', gpuCount, 0, 'Rendered on the CPU, so no GPU is used.');
  return unchanged(gpuCount);
}

/** The compositor device: always the CPU on this node. */
export function adjustCompositorDevice(requested: RenderConfig): SettingChoice<string> {
  const compositorDevice = requested.compositorDevice ?? 'CPU';
  if (compositorDevice !== 'CPU') return adjusted('compositorDevice', compositorDevice, 'CPU', 'This node composites on the CPU.');
  return unchanged(compositorDevice);
}

/** Denoising: the requested or the scene's denoiser when this Blender has it, OpenImageDenoise for a missing OptiX, else off. */
export function adjustDenoising(requested: RenderConfig, analysis: SceneAnalysis, caps: NodeCapabilities): SettingChoice<DenoiseChoice> {
  const enabled = requested.denoisingEnabled ?? analysis.denoisingEnabled;
  const denoiser: string | null = requested.denoiserType ?? analysis.denoiser;
  if (!enabled) return unchanged({ enabled, denoiser });
  if (denoiser === 'OPTIX' && !caps.optix) {
    if (caps.openImageDenoise) {
      return { value: { enabled, denoiser: 'OPENIMAGEDENOISE' }, adjustments: [change('denoiserType', 'OPTIX', 'OPENIMAGEDENOISE', 'OptiX is not available on this node; denoised with OpenImageDenoise.')] };
    }
    return { value: { enabled: false, denoiser }, adjustments: [change('denoisingEnabled', true, false, 'This Blender has no denoiser (neither OptiX nor OpenImageDenoise); denoising was switched off.')] };
  }
  if (denoiser !== 'OPTIX' && !caps.openImageDenoise) {
    return { value: { enabled: false, denoiser }, adjustments: [change('denoisingEnabled', true, false, 'This Blender was built without OpenImageDenoise; denoising was switched off.')] };
  }
  return unchanged({ enabled, denoiser });
}

/** The memory asked for is only checked: a node with less still renders, with a warning. */
export function checkMemory(requested: RenderConfig, caps: NodeCapabilities): SettingChoice<number | undefined> {
  const minimumRam = requested.minimumRam;
  if (minimumRam && minimumRam * 1024 ** 3 > caps.totalMemoryBytes) {
    return { value: minimumRam, adjustments: [change('minimumRam', minimumRam, Math.floor(caps.totalMemoryBytes / 1024 ** 3), 'This node has less memory than requested; the render may run out of memory.')] };
  }
  return unchanged(minimumRam);
}
