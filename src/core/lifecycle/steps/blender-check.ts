import { readBlendFileHead } from '../../../blend/reader';
import { distinctBlenderVersions, opensSeries } from '../../../shared/blender-versions';
import { isAbort, PreflightError } from '../../errors';
import type { StepContext } from '../step-context';
import { traceStep } from './pack-step';

/**
 * The Blender versions the farm renders with, as a Renderdrop node lists them; null when the server
 * does not say (another farm, an older node, no render worker connected, or no answer).
 */
async function farmBlenderVersions(ctx: StepContext): Promise<string[] | null> {
  if (!ctx.client.getNodeWorkers) return null;
  try {
    const view = await ctx.client.getNodeWorkers(ctx.call);
    return view.blenderVersions?.length ? distinctBlenderVersions(view.blenderVersions) : null;
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}

/**
 * Refuse, before anything is packed or sent, a .blend saved by a newer Blender than every one the
 * farm renders with: no Blender there can open it. Saving it again from the newer Blender does not make
 * it older, so the way out is a farm that has that Blender.
 */
export async function refuseSceneTooNew(ctx: StepContext): Promise<void> {
  const { file } = ctx.record();
  if (file.fileType !== 'blend') return;
  const saved = (await readBlendFileHead(file.path).catch(() => null))?.version ?? null;
  if (saved === null) return;
  const versions = await farmBlenderVersions(ctx);
  if (versions === null || versions.some((version) => opensSeries(version, saved))) return;
  throw new PreflightError(
    'blender-too-new',
    `${file.name} was saved with Blender ${saved}, and this farm renders with Blender ${versions.join(', ')} only, which cannot open it. Nothing was sent; send it to a farm that has Blender ${saved} or newer.`,
  );
}

/** `preflighted`: {@link refuseSceneTooNew}, then the trace ({@link traceStep}). */
export async function checkBlenderThenTrace(ctx: StepContext): Promise<void> {
  await refuseSceneTooNew(ctx);
  await traceStep(ctx);
}
