import type { BlenderAddonView } from '../../shared/contract';

/** What one Blender's row in Settings > Blender add-on says and offers. */
export interface BlenderAddonRow {
  /** The add-on's state in that Blender, in the artist's words. */
  status: string;
  /** The install button's label ("Install for Blender 4.2"), or null when there is none. */
  install: string | null;
  /** Whether "Remove" is offered (only for what Renderdrop installed). */
  removable: boolean;
}

/**
 * The row of one Blender: "Install for Blender 4.2" when the add-on is not there, "Installed" with
 * Remove when it is, Update or Reinstall when an older or changed copy is; nothing to press for a
 * Blender too old for the add-on or a folder another add-on of that name holds.
 */
export function blenderAddonRow(blender: BlenderAddonView): BlenderAddonRow {
  const series = `Blender ${blender.series}`;
  if (!blender.supported) return { status: 'Too old for the add-on: it needs Blender 3.3 or newer.', install: null, removable: false };
  switch (blender.state) {
    case 'installed':
      return { status: 'Installed', install: null, removable: true };
    case 'outdated':
      return { status: `An older version (${blender.installedVersion ?? 'unknown'}) is installed.`, install: `Update for ${series}`, removable: true };
    case 'modified':
      return { status: 'Installed, but its files were changed since.', install: `Reinstall for ${series}`, removable: true };
    case 'foreign':
      return {
        status: 'Another add-on called Renderdrop is installed here, not by this app. Remove it in Blender’s Preferences › Add-ons first.',
        install: null,
        removable: false,
      };
    default:
      return { status: 'Not installed', install: `Install for ${series}`, removable: false };
  }
}
