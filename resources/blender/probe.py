"""Report what this Blender can do, as JSON.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python probe.py -- OUT.json

Fields: version, versionParts, cyclesDevices (device types that have at least one device; CPU is
always there), openImageDenoise, optix, viewTransforms (of the default display of the OCIO config
Blender loaded), displayDevices, looks, colorSpaces, ocioConfig (the OCIO env var, if set).
"""

import json
import os
import re
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rd_common import enum_choices, out_path  # noqa: E402

GPU_TYPES = ("CUDA", "OPTIX", "HIP", "METAL", "ONEAPI")


def cycles_info():
    try:
        import _cycles
    except ImportError:
        return [], False
    devices = ["CPU"]
    for kind in GPU_TYPES:
        try:
            found = _cycles.available_devices(kind)
        except (ValueError, RuntimeError):
            continue
        if any(len(d) > 1 and d[1] == kind for d in found):
            devices.append(kind)
    return devices, bool(getattr(_cycles, "with_openimagedenoise", False))


def main():
    out = out_path("probe.py")
    scene = bpy.context.scene
    devices, oidn = cycles_info()
    colorspaces = bpy.types.ColorManagedInputColorspaceSettings.bl_rna.properties["name"].enum_items
    info = {
        "version": bpy.app.version_string.split(" ")[0],
        "versionParts": list(bpy.app.version),
        "cyclesDevices": devices,
        "openImageDenoise": oidn,
        "optix": "OPTIX" in devices,
        "viewTransforms": enum_choices(scene.view_settings, "view_transform"),
        "displayDevices": enum_choices(scene.display_settings, "display_device"),
        "looks": enum_choices(scene.view_settings, "look"),
        "colorSpaces": [item.identifier for item in colorspaces],
        "ocioConfig": os.environ.get("OCIO") or None,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(info, f)


main()
