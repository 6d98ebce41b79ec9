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

GPU_TYPES = ("CUDA", "OPTIX", "HIP", "METAL", "ONEAPI")


def out_path():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        raise SystemExit("probe.py: missing output path after --")
    return argv[0]


def enum_choices(owner, attr):
    """The values a dynamic enum accepts now (Blender lists them when given an unknown one)."""
    try:
        setattr(owner, attr, "\x01renderdrop-probe")
    except TypeError as err:
        found = re.search(r"not found in \((.*)\)\s*$", str(err))
        if found:
            return re.findall(r"'((?:[^'\\]|\\.)*)'", found.group(1))
    return [getattr(owner, attr)]


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
    out = out_path()
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
