"""Report what this Blender can do, as JSON.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python probe.py -- OUT.json

Fields: version, versionParts, cyclesDevices (device types that have at least one device; CPU is
always there), openImageDenoise, optix, viewTransforms (of the default display of the OCIO config
Blender loaded), displayDevices, looks, colorSpaces, ocioConfig (the OCIO env var, if set), and
analysisFacts: what the node's .blend reader needs to answer the analysis as this Blender would
(src/render-node/blender/analysis-facts.ts).
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


MOVIE_FORMATS = {"AVI_JPEG", "AVI_RAW", "FFMPEG"}


def enum_values(owner, prop):
    """Identifier to stored value of every item of an enum property."""
    p = owner.bl_rna.properties[prop]
    items = getattr(p, "enum_items_static", None) or p.enum_items
    return {item.identifier: item.value for item in items}


def format_facts(fmt):
    """For each still-image format: its stored value and the colour modes, depths and EXR codecs it accepts."""
    values = enum_values(fmt, "file_format")
    out = []
    for name in enum_choices(fmt, "file_format"):
        if name in MOVIE_FORMATS or name not in values:
            continue
        fmt.file_format = name
        depths = enum_choices(fmt, "color_depth")
        codecs = {}
        if name.startswith("OPEN_EXR"):
            for depth in depths:
                fmt.color_depth = depth
                codecs[depth] = enum_choices(fmt, "exr_codec")
        out.append({"name": name, "value": values[name], "colorModes": enum_choices(fmt, "color_mode"),
                    "colorDepths": depths, "exrCodecs": codecs})
    fmt.file_format = "PNG"
    return out


def analysis_facts(scene):
    fmt = scene.render.image_settings
    cycles = getattr(scene, "cycles", None)
    props = cycles.bl_rna.properties if cycles is not None else None
    return {
        "fileVersion": list(bpy.app.version_file),
        "engines": enum_choices(scene.render, "engine"),
        "defaultDisplay": scene.display_settings.display_device,
        "defaultView": scene.view_settings.view_transform,
        "cyclesSamples": props["samples"].default if props else None,
        "cyclesDenoising": props["use_denoising"].default if props else None,
        "formats": format_facts(fmt),
        "colorModes": enum_values(fmt, "color_mode"),
        "colorDepths": enum_values(fmt, "color_depth"),
        "exrCodecs": enum_values(fmt, "exr_codec"),
        "tiffCodecs": enum_values(fmt, "tiff_codec"),
    }


def safe_analysis_facts(scene):
    """The facts, or None when this Blender cannot give them (the node then analyses every scene with Blender)."""
    try:
        return analysis_facts(scene)
    except Exception as err:  # noqa: BLE001 - a probe must not fail for an optional part
        print("renderdrop probe: no analysis facts: %s" % err, file=sys.stderr)
        return None


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
        "analysisFacts": safe_analysis_facts(scene),
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(info, f)


main()
