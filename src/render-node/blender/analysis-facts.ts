import { z } from 'zod';

/** One still-image format the node's Blender writes, with the settings it accepts. */
export const outputFormatFactSchema = z.object({
  /** RNA identifier, e.g. "PNG". */
  name: z.string(),
  /** The value a .blend stores for it (`ImageFormatData.imtype`). */
  value: z.number().int(),
  colorModes: z.array(z.string()),
  colorDepths: z.array(z.string()),
  /** EXR codecs accepted at each colour depth (EXR formats only). */
  exrCodecs: z.record(z.string(), z.array(z.string())),
});
export type OutputFormatFact = z.infer<typeof outputFormatFactSchema>;

const enumValues = z.record(z.string(), z.number().int());

/**
 * What only the node's Blender knows and the .blend reader needs to answer the analysis as that
 * Blender would: its render engines, the factory colour management, the defaults of Cycles'
 * properties that a file stores only when changed, and the stored value of every enum item it reads.
 * Learned once by the probe (resources/blender/probe.py).
 */
export const analysisFactsSchema = z.object({
  /** The file version this Blender writes (major, minor, subversion). */
  fileVersion: z.array(z.number().int()).min(3),
  engines: z.array(z.string()),
  defaultDisplay: z.string(),
  defaultView: z.string(),
  cyclesSamples: z.number().int().nullable(),
  cyclesDenoising: z.boolean().nullable(),
  formats: z.array(outputFormatFactSchema),
  colorModes: enumValues,
  colorDepths: enumValues,
  exrCodecs: enumValues,
  tiffCodecs: enumValues,
});
export type AnalysisFacts = z.infer<typeof analysisFactsSchema>;

/** Everything the .blend reader needs of the node's Blender: the facts and its colour management. */
export interface SceneReaderFacts {
  /** e.g. "3.4.1" */
  version: string;
  facts: AnalysisFacts;
  viewTransforms: string[];
  displayDevices: string[];
  looks: string[];
  colorSpaces: string[];
}

/** The reader's facts of a probed Blender, or null when its probe did not learn them. */
export function readerFactsOf(info: {
  version: string;
  analysisFacts?: AnalysisFacts | null;
  viewTransforms: string[];
  displayDevices: string[];
  looks: string[];
  colorSpaces: string[];
}): SceneReaderFacts | null {
  if (!info.analysisFacts) return null;
  const { version, viewTransforms, displayDevices, looks, colorSpaces } = info;
  return { version, facts: info.analysisFacts, viewTransforms, displayDevices, looks, colorSpaces };
}
