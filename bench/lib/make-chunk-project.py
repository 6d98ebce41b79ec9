"""Make the project the chunked-upload benchmark re-submits, or re-save its scene with one object moved.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-chunk-project.py -- make PROJ SOUND TEXTURE [TEXTURE ...]
  blender -b -Y --factory-startup --python-exit-code 1 PROJ/scene.blend --python make-chunk-project.py -- move

`make` writes PROJ/lib.blend (a mesh the scene links) and PROJ/scene.blend: 400 objects, the sound
SOUND packed into it (random bytes: the .blend's bulk), and one image per TEXTURE (files of the
project, as //textures/<name>). `move` moves one object of the open scene a little and saves it.
"""

import os
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]

if argv[0] == "move":
    bpy.data.objects["Cube.0200"].location.x += 0.25
    bpy.ops.wm.save_mainfile()
    raise SystemExit(0)

proj, sound, textures = argv[1], argv[2], argv[3:]
bpy.ops.wm.read_factory_settings(use_empty=True)
library = os.path.join(proj, "lib.blend")
mesh = bpy.data.meshes.new("LibraryRock")
mesh.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [], [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)])
rock = bpy.data.objects.new("LibraryRock", mesh)
rock.use_fake_user = True
bpy.data.libraries.write(library, {rock}, path_remap="RELATIVE")

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
for i in range(400):
    cube = bpy.data.meshes.new("Cube.%04d" % i)
    cube.from_pydata([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)], [], [(0, 1, 3, 2), (4, 5, 7, 6), (0, 1, 5, 4), (2, 3, 7, 6), (0, 2, 6, 4), (1, 3, 7, 5)])
    obj = bpy.data.objects.new("Cube.%04d" % i, cube)
    obj.location = (i % 20 * 2.0, i // 20 * 2.0, 0)
    scene.collection.objects.link(obj)
packed = bpy.data.sounds.load(sound, check_existing=False)
packed.pack()
packed.use_fake_user = True
for path in textures:
    image = bpy.data.images.new(os.path.basename(path), 4, 4)
    image.source = "FILE"
    image.filepath = "//textures/" + os.path.basename(path)
    image.use_fake_user = True
with bpy.data.libraries.load(library, link=True, relative=True) as (data_from, data_to):
    data_to.objects = ["LibraryRock"]
for obj in data_to.objects:
    scene.collection.objects.link(obj)
bpy.ops.wm.save_as_mainfile(filepath=os.path.join(proj, "scene.blend"), relative_remap=True)
