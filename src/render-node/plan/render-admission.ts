import { applyRenderLimits, type PlannedRender, type RenderLimits } from './render-limits';
import { estimateRenderBytes } from './output-estimate';
import { freeBytes } from '../disk';
import { formatBytes } from '../../shared/text';
import { badRequest, insufficientStorage } from '../http-error';

/**
 * Admit a planned render to this node: over a limit it is refused (400 naming the limit) or capped
 * (reported in the adjustments); when its frames, whose size can be told in advance, would not fit on
 * the disk under `diskDir`, it is refused with 507 and the job stays validated, ready once space is freed.
 */
export async function admitRender(planned: PlannedRender, node: { limits: RenderLimits; headroomBytes: number; diskDir: string }): Promise<PlannedRender> {
  const { limits, headroomBytes } = node;
  const limited = applyRenderLimits(planned, limits);
  if (!limited.ok) throw badRequest(limited.code, limited.message);
  const needed = estimateRenderBytes(limited.plan, limited.plan.frames.length, limited.plan.frames.length);
  if (needed !== null) {
    const free = await freeBytes(node.diskDir).catch(() => Infinity);
    if (needed + headroomBytes > free) {
      throw insufficientStorage(
        `Not enough disk space on the render node: these ${limited.plan.frames.length} frames and their zip need about ${formatBytes(needed)}, and ${formatBytes(free)} is free. Free space on the node's disk (or render fewer frames or a smaller size), then start the render again.`,
      );
    }
  }
  return { finalConfig: limited.finalConfig, plan: limited.plan };
}
