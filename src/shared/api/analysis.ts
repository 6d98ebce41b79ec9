/**
 * The scene analysis a validated job carries in `analysis` (the local render node's shape; other
 * servers may differ, so clients read it defensively).
 */
export interface SceneAnalysis {
  /**
   * Blender version that saved the file. The local node reports "major.minor" (e.g. "3.4"): a .blend
   * does not record the patch release.
   */
  savedWithBlender: string | null;
  /** Blender version of the node that analysed it. */
  nodeBlender: string;
  /** True when the file was saved by a newer Blender than the node's. */
  savedWithNewerBlender: boolean;
  /** Name of the scene that will be rendered. */
  scene: string;
  engine: string;
  frameStart: number;
  frameEnd: number;
  frameStep: number;
  fps: number;
  fpsBase: number;
  resolution: [number, number];
  resolutionPercentage: number;
  samples: number | null;
  denoisingEnabled: boolean;
  denoiser: string | null;
  cameras: string[];
  activeCamera: string | null;
  viewLayers: { name: string; useForRender: boolean }[];
  activeViewLayer: string | null;
  outputFormat: string;
  outputSettings: {
    colorMode: string;
    colorDepth: string;
    exrCodec: string | null;
    tiffCodec: string | null;
    compression: number | null;
    quality: number | null;
  };
  outputPath: string;
  colorManagement: {
    displayDevice: string;
    viewTransform: string;
    look: string;
    exposure: number;
    gamma: number;
    sequencer: string;
    availableViewTransforms: string[];
  };
  usesCompositor: boolean;
  /** External files the scene needs, with whether each exists on the node. */
  dependencies: SceneDependency[];
  warnings: AnalysisWarning[];
  /** Frames the default range renders (frameStart..frameEnd by frameStep). */
  totalFrames: number;
}

export type DependencyKind = 'image' | 'library' | 'cache' | 'sound' | 'movieclip' | 'volume' | 'font';

export interface SceneDependency {
  kind: DependencyKind;
  name: string;
  /** The path as stored in the file (may be relative, `//...`). */
  path: string;
  /** Absolute path on the node, or null when it cannot be resolved. */
  resolvedPath: string | null;
  packed: boolean;
  exists: boolean;
}

export interface AnalysisWarning {
  /** Stable code: `missing-dependency`, `newer-blender`, `denoiser-unavailable`, ... */
  code: string;
  message: string;
  path?: string;
}
