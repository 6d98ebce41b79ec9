"""Save a scene whose images are packed into its .blend (image files of random bytes, as 8k PNGs are to deflate).

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-packed-images-scene.py -- OUT.blend IMAGE [IMAGE ...]
"""

import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
out, images = argv[0], argv[1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
for path in images:
    image = bpy.data.images.load(path, check_existing=False)
    image.pack()
    image.use_fake_user = True
bpy.ops.wm.save_as_mainfile(filepath=out)
