/** The Blender the node renders with, and what it can do. */
export interface BlenderRuntime {
  path: string;
  version: string;
  openImageDenoise: boolean;
  optix: boolean;
  eeveeUsable: boolean | null;
}
