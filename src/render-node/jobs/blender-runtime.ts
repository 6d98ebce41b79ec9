import type { SceneReaderFacts } from '../blender';

/** The Blender the node renders with, and what it can do. */
export interface BlenderRuntime {
  path: string;
  version: string;
  openImageDenoise: boolean;
  optix: boolean;
  eeveeUsable: boolean | null;
  /** What the .blend reader needs to analyse scenes as this Blender would; null: Blender analyses every scene. */
  reader?: SceneReaderFacts | null;
  /**
   * Whether Blender runs the scene's own Python (`-y`: drivers' expressions, text blocks registered as
   * modules), which the node does only when told to trust its scenes; otherwise `-Y`.
   */
  runsScenePython?: boolean;
}
