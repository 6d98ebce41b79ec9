"""Turn a rendered frame (PNG, JPEG, EXR, TIFF, ...) into a small PNG preview.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python preview.py -- IMAGE OUT.png MAX_SIZE [VIEW_TRANSFORM]

The image is scaled to fit MAX_SIZE x MAX_SIZE (never enlarged) and saved as 8-bit PNG through the
view transform (default "Standard"), so float images such as EXR become displayable. Prints
`RDJSON {"event":"preview","path":...,"width":W,"height":H}`.
"""

import json
import os
import sys

import bpy


def make_preview(source, out, max_size, view_transform="Standard", scene=None):
    """Save a PNG of SOURCE scaled to fit MAX_SIZE at OUT through SCENE's settings (default: the
    current scene, whose colour and output settings it changes); returns (width, height)."""
    image = bpy.data.images.load(os.path.abspath(source), check_existing=False)
    width, height = image.size
    if width == 0 or height == 0:
        raise RuntimeError("Blender could not read the image %s" % source)
    scale = min(1.0, float(max_size) / max(width, height))
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    if (new_w, new_h) != (width, height):
        image.scale(new_w, new_h)

    scene = scene or bpy.context.scene
    scene.view_settings.view_transform = view_transform
    scene.view_settings.look = "None"
    scene.view_settings.exposure = 0.0
    scene.view_settings.gamma = 1.0
    settings = scene.render.image_settings
    settings.file_format = "PNG"
    settings.color_mode = "RGBA" if image.channels == 4 else "RGB"
    settings.color_depth = "8"
    # zlib at its highest levels spends a third of a second on a preview of some frames; half way
    # costs a hundredth of that for a file about a fifth larger.
    settings.compression = 50

    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    image.save_render(os.path.abspath(out), scene=scene)
    bpy.data.images.remove(image)
    return new_w, new_h


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    source, out, max_size = argv[0], argv[1], int(argv[2])
    view_transform = argv[3] if len(argv) > 3 else "Standard"
    new_w, new_h = make_preview(source, out, max_size, view_transform)
    fields = {"event": "preview", "path": os.path.abspath(out), "width": new_w, "height": new_h}
    sys.stdout.write("RDJSON " + json.dumps(fields, separators=(",", ":")) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
