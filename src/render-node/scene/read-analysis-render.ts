import { IDP_BOOLEAN, IDP_INT, type StoredScene } from '../../blend/scene-settings';
import type { SceneAnalysis } from '../../shared/api';
import type { SceneReaderFacts } from '../blender';
import { ReaderUnsure } from './read-analysis-output';

/** analyze.py's DENOISER_IDS: the stored values of Cycles' denoiser enum it names. */
const DENOISER_IDS: Record<number, string> = { 2: 'OPTIX', 4: 'OPENIMAGEDENOISE' };

function cyclesInt(scene: StoredScene, name: string, types: readonly number[]): number | null {
  const prop = scene.cycles.get(name);
  if (!prop) return null;
  if (!types.includes(prop.type) || prop.int === null) throw new ReaderUnsure(`the Cycles setting ${name} is stored as another type`);
  return prop.int;
}

/** Samples as analyze.py's samples_of gives them. */
export function samplesOf(scene: StoredScene, reader: SceneReaderFacts): number | null {
  if (scene.engine === 'CYCLES') {
    const samples = cyclesInt(scene, 'samples', [IDP_INT]) ?? reader.facts.cyclesSamples;
    if (samples === null) throw new ReaderUnsure('the default of Cycles samples is unknown');
    return samples;
  }
  if (scene.engine.startsWith('BLENDER_EEVEE')) {
    if (scene.eeveeSamples === null) throw new ReaderUnsure('the EEVEE samples cannot be read');
    return scene.eeveeSamples;
  }
  return null;
}

/** Denoising as analyze.py's denoise_of gives it. */
export function denoiseOf(scene: StoredScene, reader: SceneReaderFacts): Pick<SceneAnalysis, 'denoisingEnabled' | 'denoiser'> {
  if (scene.engine !== 'CYCLES') return { denoisingEnabled: false, denoiser: null };
  const raw = cyclesInt(scene, 'denoiser', [IDP_INT]) ?? 4;
  const denoiser = DENOISER_IDS[raw];
  if (!denoiser) throw new ReaderUnsure(`the denoiser ${raw} is not one the reader knows`);
  const stored = cyclesInt(scene, 'use_denoising', [IDP_INT, IDP_BOOLEAN]);
  const enabled = stored === null ? reader.facts.cyclesDenoising : stored !== 0;
  if (enabled === null) throw new ReaderUnsure('the default of Cycles denoising is unknown');
  return { denoisingEnabled: enabled, denoiser };
}

/** Colour management as Blender gives it once it has checked the names against its configuration. */
export function colourOf(scene: StoredScene, reader: SceneReaderFacts): SceneAnalysis['colorManagement'] {
  const { display, view, look, exposure, gamma, sequencer } = scene.colour;
  if (display !== reader.facts.defaultDisplay || !reader.displayDevices.includes(display)) {
    throw new ReaderUnsure(`the display ${display} is not the one whose view transforms the node knows`);
  }
  if (!reader.viewTransforms.includes(view)) throw new ReaderUnsure(`the view transform ${view} is not in this Blender's configuration`);
  if (look !== 'None' && !(view === reader.facts.defaultView && reader.looks.includes(look))) {
    throw new ReaderUnsure(`the look ${look} may not apply to ${view}`);
  }
  if (!reader.colorSpaces.includes(sequencer)) throw new ReaderUnsure(`the colour space ${sequencer} is not in this Blender's configuration`);
  return { displayDevice: display, viewTransform: view, look, exposure, gamma, sequencer, availableViewTransforms: [...reader.viewTransforms] };
}

/** Names in the order Python's `sorted` gives them (by code point). */
export function pythonSorted(names: readonly string[]): string[] {
  const points = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);
  return [...names].sort((a, b) => {
    const pa = points(a);
    const pb = points(b);
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
    return pa.length - pb.length;
  });
}

/** Sequence.type of a sound strip (SEQ_TYPE_SOUND_RAM): it makes no picture. */
const SEQ_TYPE_SOUND_RAM = 4;
/** The first Blender series whose renders leave muted strips out (resources/blender/rd_common.py's MUTED_STRIPS_IGNORED_FROM). */
const MUTED_STRIPS_IGNORED_FROM: readonly number[] = [5, 0];

/**
 * Whether the node's Blender takes the scene's frames from its video sequencer, as analyze.py's
 * renders_sequencer says (Blender's RE_seq_render_active): the "Sequencer" option is on and a strip at
 * the top of the edit is not a sound strip, nor muted on a Blender that leaves muted strips out.
 */
export function rendersSequencerOf(scene: Pick<StoredScene, 'sequencer'>, reader: Pick<SceneReaderFacts, 'facts'>): boolean {
  const { enabled, strips } = scene.sequencer;
  const [major = 0, minor = 0] = reader.facts.fileVersion;
  const skipMuted = major > MUTED_STRIPS_IGNORED_FROM[0]! || (major === MUTED_STRIPS_IGNORED_FROM[0] && minor >= MUTED_STRIPS_IGNORED_FROM[1]!);
  return enabled && strips.some((strip) => strip.type !== SEQ_TYPE_SOUND_RAM && !(skipMuted && strip.muted));
}
