import { readBlendFileHead } from '../../../blend/reader';
import { distinctBlenderVersions, opensSeries, pickedBlenderVersion, versionsOpening } from '../../../shared/blender-versions';
import { recordedRenderConfig } from '../../journal';
import { isAbort, PreflightError } from '../../errors';
import type { StepContext } from '../step-context';
import { traceStep } from './pack-step';

/**
 * The Blender versions the farm renders with, as a Renderdrop node lists them (empty: no render worker
 * is connected now); null when the server does not say (another farm, an older node, or no answer).
 */
async function farmBlenderVersions(ctx: StepContext): Promise<string[] | null> {
  if (!ctx.client.getNodeWorkers) return null;
  try {
    const view = await ctx.client.getNodeWorkers(ctx.call);
    return view.blenderVersions ? distinctBlenderVersions(view.blenderVersions) : null;
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}

/**
 * Why the farm cannot render with the Blender version `asked` (a series or an exact version) a scene
 * saved by `saved` (null: unknown), in one line; null when it can.
 */
export function unavailableBlender(fileName: string, asked: string, saved: string | null, versions: readonly string[] | null): string | null {
  if (versions === null) return `This server does not say which Blender versions it has, so ${fileName} cannot be rendered with Blender ${asked} there. Nothing was sent; leave the choice of Blender to the farm.`;
  const openable = versionsOpening(saved, versions);
  const instead = openable.length > 0 ? `choose ${openable.length === 1 ? openable[0] : `one of ${openable.join(', ')}`} or leave the choice to the farm` : 'leave the choice to the farm';
  const picked = pickedBlenderVersion(asked, versions);
  if (picked === null) {
    const has = versions.length > 0 ? `renders with Blender ${versions.join(', ')}` : 'has no render worker connected now';
    return `This farm has no Blender ${asked} (it ${has}). Nothing was sent; ${instead}.`;
  }
  if (saved !== null && !opensSeries(picked, saved)) return `${fileName} was saved with Blender ${saved}, which Blender ${picked} cannot open. Nothing was sent; ${instead}.`;
  return null;
}

/**
 * Refuse, before anything is packed or sent, a .blend saved by a newer Blender than every one the
 * farm renders with: no Blender there can open it. Saving it again from the newer Blender does not make
 * it older, so the way out is a farm that has that Blender. A render asked to use a Blender version
 * (`blenderVersion`) the farm does not have, or one older than the file's, is refused too.
 */
export async function refuseSceneTooNew(ctx: StepContext): Promise<void> {
  const { file } = ctx.record();
  const asked = (ctx.renderConfig ?? recordedRenderConfig(ctx.record()))?.blenderVersion ?? null;
  const saved = file.fileType === 'blend' ? ((await readBlendFileHead(file.path).catch(() => null))?.version ?? null) : null;
  if (saved === null && asked === null) return;
  const versions = await farmBlenderVersions(ctx);
  if (saved === null || versions === null || versions.length === 0 || versions.some((version) => opensSeries(version, saved))) {
    const unavailable = asked === null ? null : unavailableBlender(file.name, asked, saved, versions);
    if (unavailable !== null) throw new PreflightError('blender-unavailable', unavailable);
    return;
  }
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
