/** What the node's Blender can do, as far as a render plan cares. */
export interface NodeCapabilities {
  cyclesDevices: string[];
  openImageDenoise: boolean;
  optix: boolean;
  viewTransforms: string[];
  eeveeUsable: boolean | null;
  totalMemoryBytes: number;
}
