import type { StoredScene } from '../../blend/scene-settings';
import type { SceneAnalysis } from '../../shared/api';
import type { AnalysisFacts } from '../blender';

/** Thrown when the reader's answer might differ from the node's Blender's; the node asks Blender instead. */
export class ReaderUnsure extends Error {
  override readonly name = 'ReaderUnsure';
}

function identifierOf(values: Record<string, number>, value: number, what: string): string {
  const found = Object.entries(values).find(([, v]) => v === value);
  if (!found) throw new ReaderUnsure(`the ${what} ${value} is unknown to this Blender`);
  return found[0];
}

function accepted(id: string, choices: readonly string[] | undefined, what: string): string {
  if (!choices?.includes(id)) throw new ReaderUnsure(`the ${what} ${id} is not one this Blender accepts`);
  return id;
}

/** The output format and its settings as analyze.py reports them, through the node's Blender's own enum values. */
export function outputOf(image: StoredScene['image'], facts: AnalysisFacts): Pick<SceneAnalysis, 'outputFormat' | 'outputSettings'> {
  const format = facts.formats.find((f) => f.value === image.imtype);
  if (!format) throw new ReaderUnsure(`the output format ${image.imtype} is not a still format this Blender writes`);
  const colorMode = accepted(identifierOf(facts.colorModes, image.planes, 'colour mode'), format.colorModes, 'colour mode');
  const colorDepth = accepted(identifierOf(facts.colorDepths, image.depth, 'colour depth'), format.colorDepths, 'colour depth');
  const exr = format.name === 'OPEN_EXR' || format.name === 'OPEN_EXR_MULTILAYER';
  const exrCodec = exr ? accepted(identifierOf(facts.exrCodecs, image.exrCodec, 'EXR codec'), format.exrCodecs[colorDepth], 'EXR codec') : null;
  let tiffCodec: string | null = null;
  if (format.name === 'TIFF') {
    if (image.tiffCodec === null) throw new ReaderUnsure('the TIFF codec cannot be read');
    tiffCodec = identifierOf(facts.tiffCodecs, image.tiffCodec, 'TIFF codec');
  }
  return {
    outputFormat: format.name,
    outputSettings: {
      colorMode,
      colorDepth,
      exrCodec,
      tiffCodec,
      compression: format.name === 'PNG' ? image.compress : null,
      quality: ['JPEG', 'JPEG2000', 'WEBP'].includes(format.name) ? image.quality : null,
    },
  };
}
