"""Save a scene with one grid mesh of FACES faces (about) and one texture path: heavy geometry, as in production.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-heavy-scene.py -- OUT.blend FACES
"""

import math
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
out, faces = argv[0], int(argv[1])
side = max(1, int(math.sqrt(faces)))
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.mesh.primitive_grid_add(x_subdivisions=side, y_subdivisions=side, size=10)
image = bpy.data.images.new("Texture", 4, 4)
image.source = "FILE"
image.filepath = "//textures/texture.png"
image.use_fake_user = True
bpy.ops.wm.save_as_mainfile(filepath=out)
