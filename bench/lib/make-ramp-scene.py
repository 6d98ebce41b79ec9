"""Save a Cycles scene whose frames cost more toward the end of the shot: an array of subdivided spheres
that grows from 1 copy at the first frame to COPIES at the last, all in view of the camera.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-ramp-scene.py -- OUT.blend FRAMES COPIES SAMPLES WIDTH HEIGHT [ENGINE]

ENGINE: CYCLES (default) or BLENDER_WORKBENCH.
"""

import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
out, frames, copies, samples, width, height = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5])
engine = argv[6] if len(argv) > 6 else "CYCLES"
SUBDIVISIONS = 5
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.engine = engine
scene.cycles.device = "CPU"
scene.cycles.samples = samples
scene.cycles.use_denoising = False
scene.cycles.use_adaptive_sampling = False
scene.render.resolution_x = width
scene.render.resolution_y = height
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.filepath = "//ramp_####"
scene.frame_start = 1
scene.frame_end = frames

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=SUBDIVISIONS, radius=0.5, location=(0, 0, 0))
spheres = bpy.context.active_object
spheres.name = "Spheres"
array = spheres.modifiers.new("Grow", "ARRAY")
array.relative_offset_displace = (0.35, 0.0, 0.0)
array.count = 1
array.keyframe_insert("count", frame=1)
array.count = copies
array.keyframe_insert("count", frame=frames)
for curve in spheres.animation_data.action.fcurves:
    for key in curve.keyframe_points:
        key.interpolation = "LINEAR"

bpy.ops.mesh.primitive_plane_add(size=60, location=(0, 0, -0.6))
span = 0.35 * (copies - 1)
bpy.ops.object.camera_add(location=(span / 2, -span * 0.9 - 4, span * 0.35 + 1.5), rotation=(1.2, 0, 0))
scene.camera = bpy.context.active_object
bpy.ops.object.light_add(type="SUN", location=(0, 0, 10))
bpy.context.active_object.data.energy = 3
world = bpy.data.worlds.new("World")
world.color = (0.2, 0.2, 0.25)
scene.world = world
bpy.ops.wm.save_as_mainfile(filepath=out)
