import { z } from 'zod';

/** The kinds of external file a scene can use. */
export const DEPENDENCY_KINDS = ['image', 'library', 'cache', 'sound', 'movieclip', 'volume', 'font'] as const;
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];

/** One external file a scene uses. */
export const sceneDependencySchema = z.object({
  kind: z.enum(DEPENDENCY_KINDS),
  name: z.string(),
  /** The path as stored in the file (may be relative, `//...`, or absolute). */
  path: z.string(),
  /**
   * Where it resolves inside the uploaded files (relative to the top of the bundle, `/`-separated), or
   * null when it points outside them (an absolute path, `//../`): such a file is never read on the node.
   */
  resolvedPath: z.string().nullable(),
  packed: z.boolean(),
  exists: z.boolean(),
});
export type SceneDependency = z.infer<typeof sceneDependencySchema>;

/**
 * Codes of the warnings the local render node gives (other servers may send others):
 * - `missing-dependency`: a file the scene uses is not among the uploaded files (`path` is the path as
 *   stored in the scene), or lies outside them and is not read;
 * - `newer-blender`: the scene was saved by a newer Blender than the node's;
 * - `different-blender`: the Blender version that renders the scene (one per job) is of another series
 *   than the one that saved it ("Saved with Blender 3.4, rendered with Blender 4.3.2");
 * - `no-render-workers`: a node that renders on workers has none connected; the render waits for one;
 * - `denoiser-unavailable`, `engine-unavailable`: the node will render without them (EEVEE and Workbench
 *   with Cycles, where the Blenders that render cannot draw);
 * - `no-active-camera`: the scene has no active camera; a camera must be chosen (the message names the
 *   cameras there are); never given for a scene that renders through its video sequencer;
 * - `video-frames-only`: the scene's output is a video this node cannot make (no FFmpeg, or no encoder
 *   for its codec): the frames come back as PNG images only;
 * - `no-view-layer-for-render`: no view layer is enabled for rendering; one must be chosen (never given
 *   for a scene that renders through its video sequencer);
 * - `python-driver`: a driver whose expression needs Python (not a simple expression, nor one Blender's
 *   restricted namespace runs) gives 0 on a node that does not run scene Python (the default);
 * - `python-module`: a text block registered as a module does not run on such a node;
 * - `python-runs`: a note, not a warning: on a node started with `--trust-python`, such a driver or
 *   text block runs as in the artist's Blender;
 * - `farm-change`: a setting this node renders differently from the scene as saved, with the reason
 *   (samples over the node's limit, ...), said at validation for the scene's own settings;
 * - `farm-limit`: the scene's own settings exceed a limit of this node (frames per job, pixels per
 *   frame): the render will be refused unless fewer frames or a smaller size are chosen;
 * - `farm-delivery`: a note, not a warning: how the node delivers what the scene asks (its video is made
 *   from PNG frames, which come back too; a scene that simulates without a bake renders its frames in
 *   order, in one Blender run);
 * - `blender-errors`: added when the render ends, if Blender printed errors while rendering (the
 *   message quotes the first telling line; see jobWarningsOf for the job's whole list).
 */
export const ANALYSIS_WARNING_CODES = [
  'missing-dependency',
  'newer-blender',
  'different-blender',
  'no-render-workers',
  'denoiser-unavailable',
  'engine-unavailable',
  'no-active-camera',
  'no-view-layer-for-render',
  'video-frames-only',
  'python-driver',
  'python-module',
  'python-runs',
  'blender-errors',
  'farm-change',
  'farm-limit',
  'farm-delivery',
] as const;
export type AnalysisWarningCode = (typeof ANALYSIS_WARNING_CODES)[number];

/** One warning of a scene analysis. */
export const analysisWarningSchema = z.object({
  /** Stable code, one of {@link ANALYSIS_WARNING_CODES} from this node. */
  code: z.string(),
  message: z.string(),
  /** For missing files: the path as stored in the scene (a tile or frame of it for UDIMs and sequences). */
  path: z.string().optional(),
});
export type AnalysisWarning = z.infer<typeof analysisWarningSchema>;

/**
 * A video output as the scene stores it, in Blender's own names (`scene.render.ffmpeg`): present when
 * the scene's output format is a video (FFMPEG).
 */
export const sceneVideoSchema = z.object({
  /** The container: MPEG4, MKV, QUICKTIME, WEBM, OGG, AVI, FLV, MPEG1, MPEG2, DV. */
  container: z.string(),
  /** The video codec: H264, H265, AV1, VP9, THEORA, FFV1, PNG, QTRLE, DNXHD, PRORES, MPEG4, MPEG2, MPEG1, HUFFYUV, FLASH, DV. */
  codec: z.string(),
  /** The output quality: LOSSLESS, PERC_LOSSLESS, HIGH, MEDIUM, LOW, VERYLOW, LOWEST; NONE (or null): the bitrate decides. */
  quality: z.string().nullable(),
  /** The encoding speed: BEST, GOOD, REALTIME. */
  speed: z.string().nullable(),
  /** The bitrate in kbit/s, used when `quality` is NONE. */
  bitrateKbps: z.number().nullable(),
  /** Frames between keyframes. */
  keyframeInterval: z.number().int().nullable(),
  /** The most B-frames in a row, when the scene limits them. */
  maxBFrames: z.number().int().nullable(),
  /** The audio codec; NONE (or null): no sound. */
  audioCodec: z.string().nullable(),
});
export type SceneVideo = z.infer<typeof sceneVideoSchema>;

/**
 * The scene analysis a validated job carries in `analysis` (the local render node's shape; other
 * servers may differ, so clients read it defensively).
 */
export const sceneAnalysisSchema = z.object({
  /**
   * Blender version that saved the file. The local node reports "major.minor" (e.g. "3.4"): a .blend
   * does not record the patch release.
   */
  savedWithBlender: z.string().nullable(),
  /** Blender version of the node that analysed it. */
  nodeBlender: z.string(),
  /** True when the file was saved by a newer Blender than the node's. */
  savedWithNewerBlender: z.boolean(),
  /** Name of the scene that will be rendered. */
  scene: z.string(),
  engine: z.string(),
  frameStart: z.number().int(),
  frameEnd: z.number().int(),
  frameStep: z.number().int(),
  fps: z.number(),
  fpsBase: z.number(),
  resolution: z.tuple([z.number().int(), z.number().int()]),
  resolutionPercentage: z.number().int(),
  samples: z.number().int().nullable(),
  denoisingEnabled: z.boolean(),
  denoiser: z.string().nullable(),
  cameras: z.array(z.string()),
  activeCamera: z.string().nullable(),
  viewLayers: z.array(z.object({ name: z.string(), useForRender: z.boolean() })),
  activeViewLayer: z.string().nullable(),
  outputFormat: z.string(),
  outputSettings: z.object({
    colorMode: z.string(),
    colorDepth: z.string(),
    exrCodec: z.string().nullable(),
    tiffCodec: z.string().nullable(),
    compression: z.number().nullable(),
    quality: z.number().nullable(),
  }),
  outputPath: z.string(),
  colorManagement: z.object({
    displayDevice: z.string(),
    viewTransform: z.string(),
    look: z.string(),
    exposure: z.number(),
    gamma: z.number(),
    sequencer: z.string(),
    availableViewTransforms: z.array(z.string()),
  }),
  usesCompositor: z.boolean(),
  /** The scene's video settings when its output is a video (FFMPEG); null or absent otherwise. */
  video: sceneVideoSchema.nullish(),
  /**
   * True when the frames come from the scene's video sequencer rather than from its camera: the
   * post-processing "Sequencer" option is on and a strip of the edit makes a picture (Blender's own
   * rule, as the node's Blender applies it). Such a scene needs no camera and no view layer. False in
   * analyses stored by nodes that did not report it.
   */
  rendersSequencer: z.boolean().default(false),
  /**
   * What the scene simulates frame by frame without a bake (e.g. `cloth on "Flag"`, `rigid bodies`): its
   * frames depend on the ones before, so they render in order, from the first, in one Blender run, as
   * Blender renders them. Absent in analyses of nodes that did not report it.
   */
  simulations: z.array(z.string()).optional(),
  /** External files the scene needs, with whether each is among the uploaded files. */
  dependencies: z.array(sceneDependencySchema),
  warnings: z.array(analysisWarningSchema),
  /** Frames the default range renders (frameStart..frameEnd by frameStep). */
  totalFrames: z.number().int(),
});
export type SceneAnalysis = z.infer<typeof sceneAnalysisSchema>;
