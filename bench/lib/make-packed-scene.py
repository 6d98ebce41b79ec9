"""Save a scene whose .blend is mostly packed data: sounds made of random bytes, packed into it.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-packed-scene.py -- OUT.blend SOUND [SOUND ...]
"""

import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
out, sounds = argv[0], argv[1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
for path in sounds:
    sound = bpy.data.sounds.load(path, check_existing=False)
    sound.pack()
    sound.use_fake_user = True
image = bpy.data.images.new("Texture", 4, 4)
image.source = "FILE"
image.filepath = "//textures/texture.png"
image.use_fake_user = True
bpy.ops.wm.save_as_mainfile(filepath=out)
