"""Render one tiny EEVEE frame to prove EEVEE works here (it needs an OpenGL context).

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python check-eevee.py -- OUT.png

Prints `RDJSON {"event":"eevee","ok":true,"gpu":"..."}` when the frame was written.
"""

import json
import os
import sys

import bpy


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    scene = bpy.context.scene
    try:
        scene.render.engine = "BLENDER_EEVEE"
    except TypeError:
        scene.render.engine = "BLENDER_EEVEE_NEXT"
    scene.render.resolution_x = 8
    scene.render.resolution_y = 8
    scene.render.resolution_percentage = 100
    scene.eevee.taa_render_samples = 1
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = out
    scene.render.use_file_extension = False
    bpy.ops.render.render(write_still=True)
    if not os.path.isfile(out) or os.path.getsize(out) == 0:
        raise RuntimeError("EEVEE rendered but wrote no image")
    gpu_name = None
    try:
        import gpu
        gpu_name = "%s %s" % (gpu.platform.vendor_get(), gpu.platform.renderer_get())
    except Exception:
        pass
    print("RDJSON " + json.dumps({"event": "eevee", "ok": True, "gpu": gpu_name}, separators=(",", ":")), flush=True)


main()
