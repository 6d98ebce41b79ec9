/** What the node's Blender can do, as far as a render plan cares. */
export interface NodeCapabilities {
  cyclesDevices: string[];
  openImageDenoise: boolean;
  optix: boolean;
  viewTransforms: string[];
  eeveeUsable: boolean | null;
  /** The video encoders of the node's FFmpeg (libx264, ...); null or absent when the node cannot make videos. */
  videoEncoders?: string[] | null;
  totalMemoryBytes: number;
}
