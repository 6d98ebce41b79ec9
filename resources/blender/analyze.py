"""Describe the open scene's render settings and external files as JSON.

Usage:
  blender -b -Y --factory-startup SCENE.blend --python-exit-code 1 --python analyze.py -- OUT.json

Writes one JSON object to OUT.json (see src/render-node/blender/analyze.ts for the fields). Paths are
reported as stored and resolved against the .blend (or the library that holds the data block).
"""

import glob
import json
import os
import re
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rd_common import enum_choices, out_path  # noqa: E402

IMAGE_SKIP_TYPES = {"RENDER_RESULT", "COMPOSITING"}
IMAGE_SKIP_SOURCES = {"GENERATED", "VIEWER"}
DENOISER_IDS = {2: "OPTIX", 4: "OPENIMAGEDENOISE"}
FRAME_DIGITS = re.compile(r"^(.*?)(\d+)(\.[^./\\]*)?$")


def resolve(stored, library=None):
    """Absolute, normalised path of a stored path, or None when it cannot be resolved here.

    Relative paths (//...) are relative to the .blend, or to the library file the data came from.
    """
    if not stored:
        return None
    path = stored
    # A relative path saved on Windows may use backslashes.
    if os.sep == "/" and path.startswith("//"):
        path = "//" + path[2:].replace("\\", "/")
    path = bpy.path.abspath(path, library=library)
    if path.startswith("//"):
        return None
    if not os.path.isabs(path):
        return None
    return os.path.normpath(path)


def is_file(path):
    return path is not None and os.path.isfile(path)


def sequence_exists(path):
    """Whether a numbered file sequence has its stored frame or any sibling with the same pattern."""
    if path is None:
        return False
    if os.path.isfile(path):
        return True
    folder, name = os.path.split(path)
    m = FRAME_DIGITS.match(name)
    if not m:
        return False
    prefix, _digits, suffix = m.group(1), m.group(2), m.group(3) or ""
    pattern = glob.escape(prefix) + "[0-9]*" + glob.escape(suffix)
    return any(os.path.isfile(p) for p in glob.glob(os.path.join(glob.escape(folder), pattern)))


def udim_tiles(path, image):
    numbers = [tile.number for tile in image.tiles] or [1001]
    files = []
    for number in numbers:
        u = (number - 1001) % 10 + 1
        v = (number - 1001) // 10 + 1
        files.append(path.replace("<UDIM>", str(number)).replace("<UVTILE>", "u%d_v%d" % (u, v)))
    return files


class Collector:
    def __init__(self):
        self.dependencies = []
        self.warnings = []
        self._seen = set()

    def add(self, kind, name, stored, library=None, packed=False, check=is_file, missing_files=None):
        resolved = resolve(stored, library)
        key = (kind, resolved or stored, name)
        if key in self._seen:
            return
        self._seen.add(key)
        exists = True if packed else bool(check(resolved))
        self.dependencies.append({
            "kind": kind,
            "name": name,
            "path": stored,
            "resolvedPath": resolved,
            "packed": bool(packed),
            "exists": exists,
        })
        if exists:
            return
        for missing in missing_files or [resolved or stored]:
            shown = os.path.basename(missing) if missing_files else stored
            self.warnings.append({
                "code": "missing-dependency",
                "message": "%s \"%s\" is missing: %s was not uploaded with the scene." % (kind.capitalize(), name, shown),
                "path": missing,
            })


def collect_images(c):
    for image in bpy.data.images:
        if image.type in IMAGE_SKIP_TYPES or image.source in IMAGE_SKIP_SOURCES or image.packed_file:
            continue
        if image.source == "TILED":
            resolved = resolve(image.filepath, image.library)
            tiles = udim_tiles(resolved, image) if resolved else []
            missing = [t for t in tiles if not os.path.isfile(t)]
            c.add("image", image.name, image.filepath, image.library,
                  check=lambda _p: bool(tiles) and not missing, missing_files=missing or None)
        elif image.source == "SEQUENCE":
            c.add("image", image.name, image.filepath, image.library, check=sequence_exists)
        else:
            c.add("image", image.name, image.filepath, image.library)


def collect_libraries(c):
    for library in bpy.data.libraries:
        c.add("library", library.name, library.filepath, library.parent, packed=library.packed_file is not None)


def collect_caches(c, blend_name):
    for cache in bpy.data.cache_files:
        check = sequence_exists if cache.is_sequence else is_file
        c.add("cache", cache.name, cache.filepath, cache.library, packed=False, check=check)

    def point_cache(owner_name, pc, library):
        if pc is None:
            return
        if pc.use_external:
            c.add("cache", owner_name, pc.filepath, library, check=os.path.isdir)
        elif pc.use_disk_cache and bpy.data.filepath:
            c.add("cache", owner_name, "//blendcache_%s/" % blend_name, library, check=os.path.isdir)

    for obj in bpy.data.objects:
        for mod in obj.modifiers:
            label = "%s/%s" % (obj.name, mod.name)
            if mod.type == "FLUID" and mod.fluid_type == "DOMAIN":
                settings = mod.domain_settings
                if settings.cache_type != "REPLAY":
                    c.add("cache", label, settings.cache_directory, obj.library, check=os.path.isdir)
            elif mod.type == "OCEAN" and getattr(mod, "is_cached", False):
                c.add("cache", label, mod.filepath, obj.library, check=os.path.isdir)
            elif mod.type in {"CLOTH", "SOFT_BODY", "COLLISION"}:
                point_cache(label, getattr(mod, "point_cache", None), obj.library)
            elif mod.type == "DYNAMIC_PAINT" and mod.canvas_settings:
                for surface in mod.canvas_settings.canvas_surfaces:
                    point_cache("%s/%s" % (label, surface.name), surface.point_cache, obj.library)
        for system in getattr(obj, "particle_systems", []):
            point_cache("%s/%s" % (obj.name, system.name), system.point_cache, obj.library)
    for scene in bpy.data.scenes:
        world = scene.rigidbody_world
        if world is not None:
            point_cache("%s/Rigid Body World" % scene.name, world.point_cache, scene.library)


def collect_media(c):
    for sound in bpy.data.sounds:
        c.add("sound", sound.name, sound.filepath, sound.library, packed=sound.packed_file is not None)
    for clip in bpy.data.movieclips:
        check = sequence_exists if clip.source == "SEQUENCE" else is_file
        c.add("movieclip", clip.name, clip.filepath, clip.library, check=check)
    for volume in bpy.data.volumes:
        check = sequence_exists if volume.is_sequence else is_file
        c.add("volume", volume.name, volume.filepath, volume.library, packed=volume.packed_file is not None, check=check)
    for font in bpy.data.fonts:
        if font.filepath == "<builtin>":
            continue
        c.add("font", font.name, font.filepath, font.library, packed=font.packed_file is not None)


def collect_sequencer(c, scene):
    editor = scene.sequence_editor
    if editor is None:
        return
    strips = getattr(editor, "strips_all", None)
    for strip in strips if strips is not None else editor.sequences_all:
        if strip.type == "IMAGE" and len(strip.elements):
            stored = strip.directory.rstrip("/\\") + "/" + strip.elements[0].filename
            folder = resolve(strip.directory, scene.library)
            names = [e.filename for e in strip.elements]
            missing = [os.path.join(folder, n) for n in names if not os.path.isfile(os.path.join(folder, n))] \
                if folder else [stored]
            c.add("image", strip.name, stored, scene.library, check=lambda _p: not missing, missing_files=missing or None)
        elif strip.type == "MOVIE":
            c.add("movieclip", strip.name, strip.filepath, scene.library)


def compositor_tree(scene):
    """The compositor node tree (Blender 5 moved it to scene.compositing_node_group)."""
    tree = getattr(scene, "compositing_node_group", None)
    return tree if tree is not None else getattr(scene, "node_tree", None)


def samples_of(scene):
    engine = scene.render.engine
    if engine == "CYCLES":
        return scene.cycles.samples
    if engine.startswith("BLENDER_EEVEE"):
        return scene.eevee.taa_render_samples
    return None


def denoise_of(scene):
    if scene.render.engine != "CYCLES":
        return False, None
    raw = scene.cycles.get("denoiser")
    denoiser = DENOISER_IDS.get(raw if raw is not None else 4) or scene.cycles.denoiser or None
    return bool(scene.cycles.use_denoising), denoiser


def output_settings(fmt):
    codec_exr = fmt.exr_codec if fmt.file_format in {"OPEN_EXR", "OPEN_EXR_MULTILAYER"} else None
    codec_tiff = fmt.tiff_codec if fmt.file_format == "TIFF" else None
    compression = fmt.compression if fmt.file_format == "PNG" else None
    quality = fmt.quality if fmt.file_format in {"JPEG", "JPEG2000", "WEBP"} else None
    return {
        "colorMode": fmt.color_mode,
        "colorDepth": fmt.color_depth or "8",
        "exrCodec": codec_exr,
        "tiffCodec": codec_tiff,
        "compression": compression,
        "quality": quality,
    }


def main():
    out = out_path("analyze.py")
    scene = bpy.context.scene
    window_layer = bpy.context.view_layer
    render = scene.render
    view = scene.view_settings
    display = scene.display_settings
    blend_name = os.path.splitext(bpy.path.basename(bpy.data.filepath))[0]

    c = Collector()
    collect_images(c)
    collect_libraries(c)
    collect_caches(c, blend_name)
    collect_media(c)
    collect_sequencer(c, scene)

    tree = compositor_tree(scene)
    uses_nodes = getattr(scene, "use_nodes", True)
    uses_compositor = bool(uses_nodes and render.use_compositing and tree is not None and len(tree.nodes) > 0)
    denoising, denoiser = denoise_of(scene)

    result = {
        "fileVersion": list(bpy.data.version),
        "nodeFileVersion": list(bpy.app.version_file),
        "nodeVersion": bpy.app.version_string,
        "scene": scene.name,
        "engine": render.engine,
        "frameStart": scene.frame_start,
        "frameEnd": scene.frame_end,
        "frameStep": scene.frame_step,
        "fps": render.fps,
        "fpsBase": render.fps_base,
        "resolution": [render.resolution_x, render.resolution_y],
        "resolutionPercentage": render.resolution_percentage,
        "samples": samples_of(scene),
        "denoisingEnabled": denoising,
        "denoiser": denoiser,
        "cameras": sorted(o.name for o in scene.objects if o.type == "CAMERA"),
        "activeCamera": scene.camera.name if scene.camera else None,
        "viewLayers": [{"name": vl.name, "useForRender": bool(vl.use)} for vl in scene.view_layers],
        "activeViewLayer": window_layer.name if window_layer else None,
        "outputFormat": render.image_settings.file_format,
        "outputSettings": output_settings(render.image_settings),
        "outputPath": render.filepath,
        "colorManagement": {
            "displayDevice": display.display_device,
            "viewTransform": view.view_transform,
            "look": view.look,
            "exposure": view.exposure,
            "gamma": view.gamma,
            "sequencer": scene.sequencer_colorspace_settings.name,
            "availableViewTransforms": enum_choices(view, "view_transform"),
        },
        "usesCompositor": uses_compositor,
        "dependencies": c.dependencies,
        "warnings": c.warnings,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f)


main()
