"""Build Renderdrop's small sample scene from nothing and save it.

Usage:
  blender -b -Y --factory-startup --python-exit-code 1 --python make-sample-scene.py -- OUT.blend
      [--frames N] [--engine CYCLES|BLENDER_EEVEE|BLENDER_WORKBENCH]
      [--no-missing-texture] [--with-texture PATH] [--file-output]
      [--extra-dependencies] [--link-from LIBRARY.blend] [--compress]
      [--stored-texture PATH] [--no-active-camera]

The scene: cameras "Camera" (active) and "CloseUp", a light, a cube whose material samples an image
texture, Cycles at 64x36 px 100 %, frames 1-N (default 3), 4 samples, denoising off, PNG RGBA 8-bit to
//render/sample_####, view layers "ViewLayer" and "Background". The texture is the missing file
//textures/missing-albedo.png unless --no-missing-texture or --with-texture is given. --with-texture
takes an existing image; a path not starting with // is stored relative to OUT.blend's folder.
--file-output adds a compositor File Output node named "Extra". --extra-dependencies adds a sound, a
volume, a UDIM image (tiles 1001, 1002) and an image sequence, all pointing at missing files.
--link-from links the object "Cube" of another .blend (stored relative to OUT.blend) as "LinkedCube".
--compress saves the file compressed (zstd since Blender 3.0). --stored-texture stores PATH for the
texture exactly as given (an absolute path, or one climbing out with //../). --no-active-camera saves
the scene with its cameras but none active.
"""

import argparse
import math
import os
import sys

import bpy


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(prog="make-sample-scene.py")
    parser.add_argument("out")
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--engine", default="CYCLES")
    parser.add_argument("--no-missing-texture", action="store_true")
    parser.add_argument("--with-texture")
    parser.add_argument("--file-output", action="store_true")
    parser.add_argument("--extra-dependencies", action="store_true")
    parser.add_argument("--link-from")
    parser.add_argument("--compress", action="store_true")
    parser.add_argument("--stored-texture")
    parser.add_argument("--no-active-camera", action="store_true")
    parser.add_argument("--every-sample", action="store_true")
    return parser.parse_args(argv)


def add_camera(scene, name, location, rotation, lens):
    data = bpy.data.cameras.new(name)
    data.lens = lens
    obj = bpy.data.objects.new(name, data)
    obj.location = location
    obj.rotation_euler = rotation
    scene.collection.objects.link(obj)
    return obj


def add_cube(scene):
    s = 1.0
    verts = [(x, y, z) for x in (-s, s) for y in (-s, s) for z in (-s, s)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new("Cube")
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    obj = bpy.data.objects.new("Cube", mesh)
    scene.collection.objects.link(obj)
    return obj


def texture_path(args):
    if args.stored_texture:
        return args.stored_texture
    if args.with_texture:
        if args.with_texture.startswith("//"):
            return args.with_texture
        blend_dir = os.path.dirname(os.path.abspath(args.out))
        rel = os.path.relpath(os.path.abspath(args.with_texture), blend_dir)
        return "//" + rel.replace(os.sep, "/")
    if args.no_missing_texture:
        return None
    return "//textures/missing-albedo.png"


def add_material(obj, image_path):
    mat = bpy.data.materials.new("CubeMaterial")
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    bsdf = nodes.get("Principled BSDF")
    bsdf.inputs["Base Color"].default_value = (0.8, 0.3, 0.1, 1.0)
    if image_path:
        image = bpy.data.images.new(os.path.basename(image_path), 4, 4)
        image.source = "FILE"
        image.filepath = image_path
        tex = nodes.new("ShaderNodeTexImage")
        tex.name = "Albedo"
        tex.image = image
        mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    obj.data.materials.append(mat)


def add_file_output(scene):
    scene.use_nodes = True
    tree = scene.node_tree
    layers = next(n for n in tree.nodes if n.type == "R_LAYERS")
    out = tree.nodes.new("CompositorNodeOutputFile")
    out.name = "Extra"
    out.base_path = "//extra/"
    tree.links.new(layers.outputs["Image"], out.inputs[0])


def add_extra_dependencies():
    sound = bpy.data.sounds.load("//audio/missing.wav", check_existing=False)
    volume = bpy.data.volumes.new("Smoke")
    volume.filepath = "//vdb/smoke.vdb"
    udim = bpy.data.images.new("Tiles", 4, 4, tiled=True)
    udim.source = "TILED"
    udim.filepath = "//udim/albedo.<UDIM>.png"
    udim.tiles.new(1002)
    sequence = bpy.data.images.new("Sequence", 4, 4)
    sequence.source = "SEQUENCE"
    sequence.filepath = "//seq/frame_0001.png"
    for block in (sound, volume, udim, sequence):
        block.use_fake_user = True


def link_cube(scene, library_path, out):
    library_path = os.path.abspath(library_path)
    with bpy.data.libraries.load(library_path, link=True) as (_src, dst):
        dst.objects = ["Cube"]
    obj = bpy.data.objects.new("LinkedCube", None)
    linked = dst.objects[0]
    obj.instance_type = "COLLECTION"
    collection = bpy.data.collections.new("Linked")
    collection.objects.link(linked)
    obj.instance_collection = collection
    obj.location = (0.0, 0.0, 2.5)
    scene.collection.objects.link(obj)
    library = linked.library
    rel = os.path.relpath(library_path, os.path.dirname(os.path.abspath(out)))
    library.filepath = "//" + rel.replace(os.sep, "/")


def main():
    args = parse_args()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene

    camera = add_camera(scene, "Camera", (7.0, -6.0, 5.0), (math.radians(63), 0.0, math.radians(49)), 50)
    add_camera(scene, "CloseUp", (3.2, -2.8, 2.2), (math.radians(63), 0.0, math.radians(49)), 35)
    scene.camera = None if args.no_active_camera else camera

    light_data = bpy.data.lights.new("Light", "POINT")
    light_data.energy = 1000
    light = bpy.data.objects.new("Light", light_data)
    light.location = (4.0, 1.0, 6.0)
    scene.collection.objects.link(light)

    cube = add_cube(scene)
    add_material(cube, texture_path(args))

    world = bpy.data.worlds.new("World")
    world.color = (0.05, 0.05, 0.08)
    scene.world = world

    render = scene.render
    render.engine = args.engine
    render.resolution_x = 64
    render.resolution_y = 36
    render.resolution_percentage = 100
    render.filepath = "//render/sample_####"
    render.image_settings.file_format = "PNG"
    render.image_settings.color_mode = "RGBA"
    render.image_settings.color_depth = "8"
    scene.frame_start = 1
    scene.frame_end = args.frames
    scene.frame_step = 1

    scene.cycles.samples = 4
    # Every sample asked for is rendered (no adaptive stop): a render's length follows its sample count.
    scene.cycles.use_adaptive_sampling = not args.every_sample
    scene.cycles.use_denoising = False
    scene.cycles.device = "CPU"
    scene.eevee.taa_render_samples = 4

    scene.view_layers[0].name = "ViewLayer"
    scene.view_layers.new("Background")

    if args.file_output:
        add_file_output(scene)
    if args.extra_dependencies:
        add_extra_dependencies()
    if args.link_from:
        link_cube(scene, args.link_from, args.out)

    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    bpy.ops.wm.save_as_mainfile(filepath=out, relative_remap=False, compress=args.compress)


main()
