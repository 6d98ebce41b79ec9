"""Render prelude: apply a Renderdrop render plan to the open scene, then render its frames.

Usage:
  blender -b -Y --factory-startup SCENE.blend --python-exit-code 1 --python render.py -- PLAN.json

First every path of the scene that leads outside the plan's `sceneRoot` (the uploaded files) is pointed
at a missing file (rd_confine.py), so nothing outside the job is read; each one is reported as a
warning by the path the scene stored. Then the plan (see src/render-node/blender/render.ts) is applied
before anything renders. Each frame is
written to <outputDir>/<fileNamePattern with # replaced by the zero-padded frame>.<ext>: rendered into
<outputDir>/.partial/ and moved into place when Blender has finished with it. Blender reports a frame
saved even when the disk filled up while writing it, so the node checks each reported file before it
counts and removes incomplete ones before a render resumes. Frames render in the order the plan lists
them (the node lists them spread across the shot, or in frame order); frames whose file already exists
and is not empty are skipped, so a render resumes with the frames left, in that order.
When the plan names a `previewDir`, a small PNG of each frame rendered is saved there as
<frame file name without extension>.png (through a scene of its own, so the render's settings stay as
they are); a preview that cannot be made is a warning, never a failed frame.
A plan with `oneRun` (a scene that simulates without a bake, its frames in order) still steps through
the frames it skips, and one with `stepFrom` (a render worker's chunk of such a scene) first steps
through every frame from that one up to the first it renders, so the simulation reaches each frame as
it would rendering them all.
A plan with `steps` (a sample render's) renders each step's frame at the step's resolution percentage
and samples, in the order listed, the same frame possibly several times; each file is removed once
reported.
Progress goes to stdout as `RDJSON {...}` lines: ready, frame (after each file is in place, or
skipped), warning, error, done.
"""

import json
import os
import re
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rd_common import compositor_tree, is_temporary_cache, renders_sequencer, script_args  # noqa: E402
from rd_confine import confine  # noqa: E402

MOVIE_FORMATS = {"FFMPEG", "AVI_JPEG", "AVI_RAW"}
PARTIAL_DIR = ".partial"


class PlanError(Exception):
    pass


# Event lines carry the plan's random token, so names inside the scene printed by Blender cannot pass for them.
event_prefix = "RDJSON "


def emit(event, **fields):
    fields = dict(event=event, **fields)
    sys.stdout.write(event_prefix + json.dumps(fields, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def warn(message):
    emit("warning", message=message)


def read_plan():
    argv = script_args()
    if not argv:
        raise PlanError("render.py: missing plan path after --")
    with open(argv[0], encoding="utf-8") as f:
        return json.load(f)


def given(plan, key):
    return plan.get(key) is not None


def safe_name(name):
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "output"


def default_pattern(filepath):
    base = re.split(r"[\\/]", filepath)[-1]
    base = re.sub(r"[^A-Za-z0-9._#-]", "_", base).rstrip(".")
    if base == "" or re.fullmatch(r"#+", base):
        return "frame_####"
    return base if "#" in base else base + "####"


def set_enum(owner, attr, value, label, context=""):
    try:
        setattr(owner, attr, value)
        return True
    except (TypeError, ValueError):
        warn("%s %s is not available%s; kept %s." % (label, value, context, getattr(owner, attr)))
        return False


def set_media_type(fmt, file_format):
    """From Blender 5.0 the file formats offered follow the media type: pick the one `file_format` belongs to."""
    if not hasattr(fmt, "media_type"):
        return
    wanted = "VIDEO" if file_format in MOVIE_FORMATS else "MULTI_LAYER_IMAGE" if file_format == "OPEN_EXR_MULTILAYER" else "IMAGE"
    if fmt.media_type != wanted:
        set_enum(fmt, "media_type", wanted, "Media type")


def apply_output(scene, plan):
    fmt = scene.render.image_settings
    wanted = plan.get("outputFormat")
    if wanted:
        set_media_type(fmt, wanted)
        if not set_enum(fmt, "file_format", wanted, "Output format"):
            raise PlanError("Output format %r is not supported by this Blender." % wanted)
    if fmt.file_format in MOVIE_FORMATS:
        warn("The scene writes video (%s); frames are written as PNG instead." % fmt.file_format)
        set_media_type(fmt, "PNG")
        fmt.file_format = "PNG"
    settings = plan.get("outputSettings") or {}
    for_format = " for %s" % fmt.file_format
    mode = settings.get("colorMode")
    # RGBA asked of a format without alpha (e.g. JPEG) quietly stays RGB.
    if mode == "RGBA" and fmt.color_mode == "RGB":
        try:
            fmt.color_mode = "RGBA"
        except TypeError:
            pass
    elif mode:
        set_enum(fmt, "color_mode", mode, "Colour mode", for_format)
    if settings.get("colorDepth"):
        set_enum(fmt, "color_depth", str(settings["colorDepth"]), "Colour depth", for_format)
    if settings.get("exrCodec") and fmt.file_format in {"OPEN_EXR", "OPEN_EXR_MULTILAYER"}:
        set_enum(fmt, "exr_codec", settings["exrCodec"], "EXR codec")
    if settings.get("tiffCodec") and fmt.file_format == "TIFF":
        set_enum(fmt, "tiff_codec", settings["tiffCodec"], "TIFF codec")
    if settings.get("compression") is not None:
        fmt.compression = int(settings["compression"])
    if settings.get("quality") is not None:
        fmt.quality = int(settings["quality"])


def apply_device(scene, device):
    if scene.render.engine != "CYCLES" or not device:
        return
    if device in ("CPU", "NONE"):
        scene.cycles.device = "CPU"
        return
    prefs = bpy.context.preferences.addons["cycles"].preferences
    try:
        prefs.compute_device_type = device
        prefs.get_devices()
    except (TypeError, ValueError):
        warn("Compute device %s is not available; rendering on the CPU." % device)
        scene.cycles.device = "CPU"
        return
    found = [d for d in prefs.devices if d.type == device]
    if not found:
        warn("No %s device found; rendering on the CPU." % device)
        scene.cycles.device = "CPU"
        return
    for d in prefs.devices:
        d.use = d.type == device
    scene.cycles.device = "GPU"


def apply_denoise(scene, denoise):
    if scene.render.engine != "CYCLES" or not denoise:
        return
    enabled = bool(denoise.get("enabled"))
    denoiser = denoise.get("denoiser")
    if enabled and denoiser:
        try:
            scene.cycles.denoiser = denoiser
        except TypeError:
            warn("Denoiser %s is not available in this Blender; denoising switched off." % denoiser)
            enabled = False
    elif enabled:
        import _cycles
        if not getattr(_cycles, "with_openimagedenoise", False) and scene.cycles.get("denoiser", 4) == 4:
            warn("This Blender has no OpenImageDenoise; denoising switched off.")
            enabled = False
    scene.cycles.use_denoising = enabled


def apply_view_layer(scene, name):
    layer = scene.view_layers.get(name)
    if layer is None:
        raise PlanError("The scene has no view layer %r." % name)
    for vl in scene.view_layers:
        vl.use = vl.name == name
    scene.render.use_single_layer = False


def apply_camera(scene, name):
    camera = scene.objects.get(name)
    if camera is None or camera.type != "CAMERA":
        raise PlanError("The scene has no camera %r." % name)
    scene.camera = camera
    for marker in scene.timeline_markers:
        marker.camera = None


def plain_file_name(path):
    """A File Output slot path reduced to a name inside its folder: no folders, no `..`, not absolute."""
    name = re.sub(r"[\\/:]+", "_", path or "").strip()
    name = re.sub(r"\.\.+", "_", name)
    return name or "output_"


def redirect_file_outputs(tree, base, seen):
    if tree is None or tree in seen:
        return
    seen.add(tree)
    for node in tree.nodes:
        if node.type == "OUTPUT_FILE":
            folder = os.path.join(base, safe_name(node.name)) + os.sep
            if hasattr(node, "base_path"):
                node.base_path = folder
            else:
                node.directory = folder
            for slot in getattr(node, "file_slots", []):
                slot.path = plain_file_name(slot.path)
            for slot in getattr(node, "layer_slots", []):
                slot.name = plain_file_name(slot.name)
        elif node.type == "GROUP":
            redirect_file_outputs(node.node_tree, base, seen)


def set_engine(render, engine):
    """Set the engine; EEVEE is BLENDER_EEVEE_NEXT in Blender 4.2-4.5 and BLENDER_EEVEE otherwise."""
    aliases = {"BLENDER_EEVEE": "BLENDER_EEVEE_NEXT", "BLENDER_EEVEE_NEXT": "BLENDER_EEVEE"}
    for candidate in (engine, aliases.get(engine)):
        if candidate is None:
            continue
        try:
            render.engine = candidate
            return
        except TypeError:
            pass
    raise PlanError("Render engine %r is not available in this Blender." % engine)


def apply_size(scene, size):
    """Samples and resolution percentage, where given (the plan's, or one step's of a sample render)."""
    render = scene.render
    if given(size, "samples"):
        if render.engine == "CYCLES":
            scene.cycles.samples = int(size["samples"])
        elif render.engine.startswith("BLENDER_EEVEE"):
            scene.eevee.taa_render_samples = int(size["samples"])
    if given(size, "resolutionPercentage"):
        render.resolution_percentage = int(size["resolutionPercentage"])


def apply_plan(scene, plan):
    render = scene.render
    if given(plan, "engine"):
        set_engine(render, plan["engine"])
    apply_size(scene, plan)
    if given(plan, "resolution"):
        render.resolution_x, render.resolution_y = (int(v) for v in plan["resolution"])
    if given(plan, "fps"):
        render.fps = int(plan["fps"])
    if given(plan, "camera"):
        apply_camera(scene, plan["camera"])
    if given(plan, "viewLayer"):
        apply_view_layer(scene, plan["viewLayer"])
    apply_denoise(scene, plan.get("denoise"))
    apply_device(scene, plan.get("device"))
    if render.engine == "CYCLES" and hasattr(scene.cycles, "use_auto_tile"):
        if given(plan, "useTiling"):
            scene.cycles.use_auto_tile = bool(plan["useTiling"])
        if given(plan, "tileSize"):
            scene.cycles.tile_size = int(plan["tileSize"])
    if given(plan, "threads"):
        render.threads_mode = "FIXED"
        render.threads = int(plan["threads"])
    cm = plan.get("colorManagement") or {}
    if cm.get("viewTransform"):
        if not set_enum(scene.view_settings, "view_transform", cm["viewTransform"], "View transform"):
            raise PlanError("View transform %r is not in this Blender's colour configuration." % cm["viewTransform"])
    if cm.get("look"):
        set_enum(scene.view_settings, "look", cm["look"], "Look")
    apply_output(scene, plan)
    if given(plan, "compositeOutputDir"):
        redirect_file_outputs(compositor_tree(scene), os.path.abspath(plan["compositeOutputDir"]), set())
    if scene.camera is None and not renders_sequencer(scene):
        raise PlanError("The scene has no active camera.")


def non_empty(path):
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def main():
    global event_prefix
    plan = read_plan()
    if plan.get("eventToken"):
        event_prefix = "RDJSON:%s " % plan["eventToken"]
    root = plan.get("sceneRoot") or os.path.dirname(bpy.data.filepath)
    for kind, name, stored in confine(root):
        # A cache folder Blender made in its temporary folder is gone wherever the scene opens: nothing to say.
        if kind == "cache" and any(is_temporary_cache(k, stored) for k in ("fluid", "ocean", "point")):
            continue
        warn("Not read: %s \"%s\" uses %s, outside the uploaded files." % (kind, name, stored))
    scene = bpy.context.scene
    apply_plan(scene, plan)

    out_dir = os.path.abspath(plan["outputDir"])
    partial_dir = os.path.join(out_dir, PARTIAL_DIR)
    pattern = plan.get("fileNamePattern") or default_pattern(scene.render.filepath)
    if os.path.basename(pattern) != pattern or pattern in (".", ".."):
        raise PlanError("fileNamePattern %r must be a plain file name." % pattern)
    os.makedirs(partial_dir, exist_ok=True)
    render = scene.render
    render.use_file_extension = True
    steps = plan.get("steps") or None
    frames = [int(step["frame"]) for step in steps] if steps else [int(f) for f in plan["frames"]]
    emit("ready", frameCount=len(frames), engine=render.engine, outputPattern=os.path.join(out_dir, pattern))

    if given(plan, "stepFrom") and frames:
        # A simulation reaches the first frame to render through every frame before it, as in Blender.
        for before in range(int(plan["stepFrom"]), min(frames)):
            scene.frame_set(before)

    for index, frame in enumerate(frames):
        if steps:
            apply_size(scene, steps[index])
        render.filepath = os.path.join(out_dir, pattern)
        final = render.frame_path(frame=frame)
        if non_empty(final) and not steps:
            if plan.get("oneRun"):
                # A simulation steps through the frames already rendered, so the next one follows from them.
                scene.frame_set(frame)
            emit("frame", frame=frame, path=final, seconds=0, skipped=True)
            continue
        render.filepath = os.path.join(partial_dir, pattern)
        partial = render.frame_path(frame=frame)
        render.filepath = partial
        started = time.monotonic()
        scene.frame_set(frame)
        bpy.ops.render.render(write_still=True)
        seconds = round(time.monotonic() - started, 3)
        if not non_empty(partial):
            raise PlanError("Blender rendered frame %d but wrote no file at %s." % (frame, partial))
        os.replace(partial, final)
        if plan.get("previewDir"):
            frame_preview(final, plan["previewDir"], int(plan.get("previewMaxSize") or 512))
        emit("frame", frame=frame, path=final, seconds=seconds)
        if steps:
            os.remove(final)

    try:
        os.rmdir(partial_dir)
    except OSError:
        pass
    preview = plan.get("previewPath")
    if preview and frames and not non_empty(preview):
        render.filepath = os.path.join(out_dir, pattern)
        try:
            width, height = write_preview(render.frame_path(frame=max(frames)), preview, int(plan.get("previewMaxSize") or 512))
            os.replace(preview + ".part.png", preview)
            emit("preview", path=preview, width=width, height=height)
        except Exception as err:
            warn("No preview: %s" % err)
    emit("done")


preview_scene = None


def frame_preview(final, preview_dir, max_size):
    """Save the preview of one frame; a failure is reported as a warning."""
    global preview_scene
    from preview import make_preview

    name = os.path.splitext(os.path.basename(final))[0] + ".png"
    out = os.path.join(os.path.abspath(preview_dir), name)
    try:
        if preview_scene is None:
            preview_scene = bpy.data.scenes.new("rd_frame_preview")
        make_preview(final, out + ".part.png", max_size, scene=preview_scene)
        os.replace(out + ".part.png", out)
    except Exception as err:
        warn("No preview of %s (%s)." % (os.path.basename(final), type(err).__name__))


def write_preview(source, out, max_size):
    """The preview image, made in this Blender so finalizing needs no second launch."""
    from preview import make_preview

    return make_preview(source, out + ".part.png", max_size)


try:
    main()
except PlanError as err:
    emit("error", message=str(err))
    sys.exit(1)
except Exception as err:
    emit("error", message="%s: %s" % (type(err).__name__, err))
    raise
