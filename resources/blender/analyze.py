"""Describe the open scene's render settings and external files as JSON.

Usage:
  blender -b -Y --factory-startup SCENE.blend --python-exit-code 1 --python analyze.py -- OUT.json [ROOT]

Writes one JSON object to OUT.json (see src/render-node/blender/analyze.ts for the fields). Paths are
reported as stored, resolved against the .blend (or the library that holds the data block) and given
relative to ROOT (the top of the uploaded files; default: the .blend's folder). A path outside ROOT is
missing and never looked at.
"""

import glob
import json
import os
import re
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rd_common import compositor_tree, enum_choices, is_temporary_cache, out_path, renders_sequencer, script_args  # noqa: E402
from rd_confine import outside_root, packed_linked, relative_to, resolve  # noqa: E402

IMAGE_SKIP_TYPES = {"RENDER_RESULT", "COMPOSITING"}
IMAGE_SKIP_SOURCES = {"GENERATED", "VIEWER"}
DENOISER_IDS = {2: "OPTIX", 4: "OPENIMAGEDENOISE"}
FRAME_DIGITS = re.compile(r"^(.*?)(\d+)(\.[^./\\]*)?$")


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


class Collector:
    def __init__(self, root):
        self.root = root
        self.dependencies = []
        self.warnings = []
        self._seen = set()

    def present(self, stored, library=None):
        """Whether a stored path is a file inside the uploaded files (an outside one is never looked at)."""
        resolved = resolve(stored, library)
        return not outside_root(resolved, self.root) and is_file(resolved)

    def add(self, kind, name, stored, library=None, packed=False, check=is_file, missing_files=None):
        """Record one dependency. `missing_files` are the stored forms of the missing tiles or frames."""
        resolved = resolve(stored, library)
        outside = not packed and outside_root(resolved, self.root)
        key = (kind, resolved or stored, name)
        if key in self._seen:
            return
        self._seen.add(key)
        exists = True if packed else (not outside and bool(check(resolved)))
        self.dependencies.append({
            "kind": kind,
            "name": name,
            "path": stored,
            "resolvedPath": None if outside or resolved is None else relative_to(resolved, self.root),
            "packed": bool(packed),
            "exists": exists,
        })
        if exists:
            return
        label = "%s \"%s\"" % (kind.capitalize(), name)
        if outside:
            self.warnings.append({
                "code": "missing-dependency",
                "message": "%s uses %s, outside the uploaded files: the node never reads it. Put the file in a .zip "
                           "with the scene and point the scene at it with a relative path (//...)." % (label, stored),
                "path": stored,
            })
            return
        for missing in missing_files or [stored]:
            self.warnings.append({
                "code": "missing-dependency",
                "message": "%s is missing: %s was not uploaded with the scene." % (label, missing),
                "path": missing,
            })


def tile_paths(stored, image):
    """The stored path of each UDIM tile of an image."""
    numbers = [tile.number for tile in image.tiles] or [1001]
    out = []
    for number in numbers:
        u = (number - 1001) % 10 + 1
        v = (number - 1001) // 10 + 1
        out.append(stored.replace("<UDIM>", str(number)).replace("<UVTILE>", "u%d_v%d" % (u, v)))
    return out


def collect_images(c):
    for image in bpy.data.images:
        if image.type in IMAGE_SKIP_TYPES or image.source in IMAGE_SKIP_SOURCES or image.packed_file:
            continue
        if image.source == "TILED":
            stored_tiles = tile_paths(image.filepath, image)
            missing = [t for t in stored_tiles if not c.present(t, image.library)]
            c.add("image", image.name, image.filepath, image.library,
                  check=lambda _p: not missing, missing_files=missing or None)
        elif image.source == "SEQUENCE":
            c.add("image", image.name, image.filepath, image.library, check=sequence_exists)
        else:
            c.add("image", image.name, image.filepath, image.library)


def collect_libraries(c):
    for library in bpy.data.libraries:
        # Relative to the opened .blend, indirect libraries too (see rd_confine.resolve).
        # Packed linked data (5.0+) is in the file itself, as a packed library is.
        c.add("library", library.name, library.filepath, None, packed=library.packed_file is not None or packed_linked(library))


def temporary_cache_gone(c, kind, stored, library):
    """A cache folder Blender made in its temporary folder that is not among the uploaded files.

    Blender deleted it when it quit, so it renders without it wherever the scene is opened: it is not
    reported missing (the same rule as the tracer's, rd_common.is_temporary_cache).
    """
    if not is_temporary_cache(kind, stored):
        return False
    resolved = resolve(stored, library)
    return outside_root(resolved, c.root) or not os.path.isdir(resolved)


def add_cache_folder(c, kind, label, stored, library):
    if not temporary_cache_gone(c, kind, stored, library):
        c.add("cache", label, stored, library, check=os.path.isdir)


def collect_caches(c, blend_name):
    for cache in bpy.data.cache_files:
        check = sequence_exists if cache.is_sequence else is_file
        c.add("cache", cache.name, cache.filepath, cache.library, packed=False, check=check)

    def point_cache(owner_name, pc, library):
        if pc is None:
            return
        if pc.use_external:
            add_cache_folder(c, "point", owner_name, pc.filepath, library)
        elif pc.use_disk_cache and bpy.data.filepath:
            c.add("cache", owner_name, "//blendcache_%s/" % blend_name, library, check=os.path.isdir)

    for obj in bpy.data.objects:
        for mod in obj.modifiers:
            label = "%s/%s" % (obj.name, mod.name)
            if mod.type == "FLUID" and mod.fluid_type == "DOMAIN":
                settings = mod.domain_settings
                if settings.cache_type != "REPLAY":
                    add_cache_folder(c, "fluid", label, settings.cache_directory, obj.library)
            elif mod.type == "OCEAN" and getattr(mod, "is_cached", False):
                add_cache_folder(c, "ocean", label, mod.filepath, obj.library)
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
            folder = strip.directory.rstrip("/\\") + "/"
            stored = [folder + e.filename for e in strip.elements]
            missing = [p for p in stored if not c.present(p, scene.library)]
            c.add("image", strip.name, stored[0], scene.library, check=lambda _p: not missing, missing_files=missing or None)
        elif strip.type == "MOVIE":
            c.add("movieclip", strip.name, strip.filepath, scene.library)


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


def video_of(render):
    """The scene's video settings (Blender's names) when its output is a video, else None."""
    if render.image_settings.file_format != "FFMPEG":
        return None
    ff = render.ffmpeg

    def opt(name):
        value = getattr(ff, name, None)
        return value if value not in ("", None) else None

    return {
        "container": ff.format,
        "codec": ff.codec,
        "quality": opt("constant_rate_factor"),
        "speed": opt("ffmpeg_preset"),
        "bitrateKbps": opt("video_bitrate"),
        "keyframeInterval": opt("gopsize"),
        "maxBFrames": ff.max_b_frames if getattr(ff, "use_max_b_frames", False) else None,
        "audioCodec": opt("audio_codec"),
    }


def has_simulation_zone(tree, seen=None):
    """Whether a node tree (or a group inside it) holds a Geometry Nodes simulation zone."""
    seen = seen if seen is not None else set()
    if tree is None or tree.name in seen:
        return False
    seen.add(tree.name)
    for node in tree.nodes:
        if node.bl_idname == "GeometryNodeSimulationOutput":
            return True
        if getattr(node, "node_tree", None) is not None and has_simulation_zone(node.node_tree, seen):
            return True
    return False


def unbaked(cache):
    return cache is not None and not cache.is_baked


def object_simulations(obj):
    """What one object simulates without a bake, in the note's words."""
    found = []
    for mod in obj.modifiers:
        if not mod.show_render:
            continue
        if mod.type in {"CLOTH", "SOFT_BODY"} and unbaked(getattr(mod, "point_cache", None)):
            found.append('%s on "%s"' % ("cloth" if mod.type == "CLOTH" else "a soft body", obj.name))
        elif mod.type == "DYNAMIC_PAINT" and mod.canvas_settings:
            if any(unbaked(s.point_cache) for s in mod.canvas_settings.canvas_surfaces):
                found.append('dynamic paint on "%s"' % obj.name)
        elif mod.type == "FLUID" and mod.fluid_type == "DOMAIN":
            ds = mod.domain_settings
            baked = ds.cache_type != "REPLAY" and (getattr(ds, "has_cache_baked_data", False) or getattr(ds, "has_cache_baked_any", False))
            if not baked:
                found.append('a fluid in "%s"' % obj.name)
        elif mod.type == "NODES" and has_simulation_zone(getattr(mod, "node_group", None)):
            found.append('a simulation zone on "%s"' % obj.name)
    for system in getattr(obj, "particle_systems", []):
        settings = system.settings
        dynamic = system.use_hair_dynamics if settings.type == "HAIR" else settings.physics_type != "NO"
        if dynamic and unbaked(system.point_cache):
            found.append('particles "%s" on "%s"' % (system.name, obj.name))
    return found


def simulations_of(scene):
    """What the scene simulates frame by frame from its start without a bake (cloth, soft bodies, particles,
    fluids, dynamic paint, rigid bodies, Geometry Nodes simulation zones): each frame of such a scene
    depends on the one before, so its frames render in order, from the first, as Blender renders them.
    An object whose physics cannot be read here counts as simulating (rendering in order is never wrong)."""
    found = []
    for obj in scene.objects:
        try:
            found.extend(object_simulations(obj))
        except (AttributeError, TypeError):
            found.append('"%s" (its physics could not be read)' % obj.name)
    world = scene.rigidbody_world
    if world is not None and world.enabled and world.collection is not None and len(world.collection.objects) > 0 and unbaked(world.point_cache):
        found.append("rigid bodies")
    return sorted(set(found))


def main():
    out = out_path("analyze.py")
    args = script_args()
    root = args[1] if len(args) > 1 else os.path.dirname(bpy.data.filepath)
    scene = bpy.context.scene
    window_layer = bpy.context.view_layer
    render = scene.render
    view = scene.view_settings
    display = scene.display_settings
    blend_name = os.path.splitext(bpy.path.basename(bpy.data.filepath))[0]

    c = Collector(root)
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
        "video": video_of(render),
        "rendersSequencer": renders_sequencer(scene),
        "simulations": simulations_of(scene),
        "dependencies": c.dependencies,
        "warnings": c.warnings,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f)


main()
