"""Keep Blender on the node inside a job's folder.

A scene may store absolute paths (`/some/where/secret.png`, `C:\\...`) or relative ones that climb out
of the job's folder (`//../../x`). The node never has the artist's disk, and must not hand its own
files to whoever uploaded the scene, so such paths count as missing: the analysis reports them without
looking at them, and `confine()` points every one of them at a file that does not exist before the
render reads anything.

Blender's loader itself opens linked libraries and fonts while it reads the .blend, before any script
runs, so the node points those that lead outside at files in NOT_UPLOADED before Blender starts
(src/blend/pack/sever-outside-paths.ts): such paths count as outside here too. `confine()` also removes
such libraries with everything linked from them and gives such text objects the built-in font, so none
of their content is rendered.
"""

import os

import bpy

# Where outside paths are sent: inside the job's folder, never created by the node.
NOT_UPLOADED = ".renderdrop-not-uploaded"


def resolve(stored, library=None):
    """Absolute, normalised path of a stored path, or None when it cannot be resolved here.

    Relative paths (//...) are relative to the .blend, or to the library file the data came from. The
    path of a library itself is relative to the opened .blend: once Blender has loaded the file it
    rewrites every library's path, indirect ones too, relative to the opened file (the stored
    `//trees/tree.blend` of a library linked by `//../assets/forest.blend` reads
    `//../assets/trees/tree.blend`), so a library's path is resolved with library=None, never against
    `library.parent`.
    """
    if not stored:
        return None
    path = stored
    # A path saved on Windows may use backslashes.
    if os.sep == "/" and (path.startswith("//") or path[1:3] in (":\\", ":/")):
        path = path[:2] + path[2:].replace("\\", "/")
    path = bpy.path.abspath(path, library=library)
    if path.startswith("//") or not os.path.isabs(path):
        return None
    return os.path.normpath(path)


def inside(path, root):
    """Whether an absolute path lies inside `root`, judged from the path alone: nothing outside is looked at.

    The uploaded files hold no symbolic links (zips with links are refused), so the lexical check is the
    real one.
    """
    if path is None:
        return False
    base = os.path.normpath(os.path.abspath(root))
    path = os.path.normpath(path)
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


def severed(path, root):
    """Whether a path is one the node pointed at nothing before Blender opened the scene (it led outside)."""
    return inside(path, os.path.join(os.path.abspath(root), NOT_UPLOADED))


def outside_root(path, root):
    """Whether a resolved path counts as outside the uploaded files: not inside them, or severed."""
    return not inside(path, root) or severed(path, root)


def relative_to(path, root):
    """A path inside `root` as it lies in the uploaded files: relative, with `/` separators."""
    return os.path.relpath(os.path.normpath(path), os.path.normpath(os.path.abspath(root))).replace(os.sep, "/")


class Confiner:
    """Rewrites outside paths and remembers what it changed, by the path the scene stored."""

    def __init__(self, root):
        self.root = root
        self.cut = []

    def outside(self, stored, library=None):
        if not stored or stored == "<builtin>":
            return False
        return outside_root(resolve(stored, library), self.root)

    def nowhere(self, stored):
        name = os.path.basename(stored.replace("\\", "/").rstrip("/")) or "file"
        return os.path.join(os.path.abspath(self.root), NOT_UPLOADED, name)

    def path(self, owner, attr, kind, name, library=None, folder=False):
        stored = getattr(owner, attr, "")
        if not self.outside(stored, library):
            return False
        target = self.nowhere(stored)
        setattr(owner, attr, target + (os.sep if folder else ""))
        self.cut.append((kind, name, stored))
        return True


def _node_trees():
    trees = [m.node_tree for m in bpy.data.materials if m.node_tree]
    trees += [w.node_tree for w in bpy.data.worlds if w.node_tree]
    trees += [l.node_tree for l in bpy.data.lights if getattr(l, "node_tree", None)]
    trees += list(bpy.data.node_groups)
    for scene in bpy.data.scenes:
        for tree in (getattr(scene, "compositing_node_group", None), getattr(scene, "node_tree", None)):
            if tree is not None:
                trees.append(tree)
    return trees


def _point_caches(obj):
    for mod in obj.modifiers:
        cache = getattr(mod, "point_cache", None)
        if cache is not None:
            yield "%s/%s" % (obj.name, mod.name), cache
        if mod.type == "DYNAMIC_PAINT" and mod.canvas_settings:
            for surface in mod.canvas_settings.canvas_surfaces:
                yield "%s/%s/%s" % (obj.name, mod.name, surface.name), surface.point_cache
    for system in getattr(obj, "particle_systems", []):
        yield "%s/%s" % (obj.name, system.name), system.point_cache


def _confine_datablocks(c):
    for image in bpy.data.images:
        if image.packed_file is None and image.source in {"FILE", "SEQUENCE", "MOVIE", "TILED"}:
            c.path(image, "filepath", "image", image.name, image.library)
    for sound in bpy.data.sounds:
        if sound.packed_file is None:
            c.path(sound, "filepath", "sound", sound.name, sound.library)
    for clip in bpy.data.movieclips:
        c.path(clip, "filepath", "movieclip", clip.name, clip.library)
    for cache in bpy.data.cache_files:
        c.path(cache, "filepath", "cache", cache.name, cache.library)
    for volume in bpy.data.volumes:
        if volume.packed_file is None:
            c.path(volume, "filepath", "volume", volume.name, volume.library)


def packed_linked(library):
    """Whether a library's data is in the opened file itself, though not packed as a whole (5.0+): an
    archive of packed linked data-blocks, or the library such archives were made from once nothing is
    linked from it any more (Blender then never opens it)."""
    if getattr(library, "is_archive", False):
        return True
    return bool(getattr(library, "archive_libraries", None)) and not library.users_id


def _confine_libraries(c):
    for library in list(bpy.data.libraries):
        if packed_linked(library):
            continue
        # Blender keeps the path of every library it loaded, indirect ones too, relative to the opened
        # file, never to `library.parent` (see resolve()).
        if library.packed_file is None and c.path(library, "filepath", "library", library.name):
            # Removing the library removes everything linked from it, so none of it renders; one that
            # packed linked data came from would take its archives along, so it only loses its path.
            if not getattr(library, "archive_libraries", None):
                bpy.data.libraries.remove(library)


def _confine_fonts(c):
    outside = set()
    for font in bpy.data.fonts:
        if font.packed_file is None and c.path(font, "filepath", "font", font.name, font.library):
            outside.add(font.name)
    if not outside:
        return
    builtin = bpy.data.fonts.load("<builtin>", check_existing=True)
    for curve in bpy.data.curves:
        for attr in ("font", "font_bold", "font_italic", "font_bold_italic"):
            font = getattr(curve, attr, None)
            if font is not None and font.name in outside:
                setattr(curve, attr, builtin)


def _confine_scenes(c):
    for scene in bpy.data.scenes:
        editor = scene.sequence_editor
        if editor is None:
            continue
        strips = getattr(editor, "strips_all", None)
        for strip in strips if strips is not None else editor.sequences_all:
            if strip.type == "IMAGE":
                c.path(strip, "directory", "image", strip.name, scene.library, folder=True)
            elif strip.type == "MOVIE":
                c.path(strip, "filepath", "movieclip", strip.name, scene.library)


def _confine_objects(c):
    for obj in bpy.data.objects:
        for mod in obj.modifiers:
            label = "%s/%s" % (obj.name, mod.name)
            if mod.type == "FLUID" and mod.fluid_type == "DOMAIN":
                c.path(mod.domain_settings, "cache_directory", "cache", label, obj.library, folder=True)
            elif mod.type == "OCEAN":
                c.path(mod, "filepath", "cache", label, obj.library, folder=True)
            elif mod.type == "MESH_CACHE":
                c.path(mod, "filepath", "cache", label, obj.library)
        for label, cache in _point_caches(obj):
            if cache is not None and cache.use_external:
                c.path(cache, "filepath", "cache", label, obj.library, folder=True)


def _confine_nodes(c):
    for tree in _node_trees():
        for node in tree.nodes:
            if node.bl_idname in {"ShaderNodeScript", "ShaderNodeTexIES"} and getattr(node, "mode", "") == "EXTERNAL":
                c.path(node, "filepath", "script" if node.bl_idname == "ShaderNodeScript" else "image", node.name)


def confine(root):
    """Point every path of the open file that leads outside `root` at a missing file.

    Returns (kind, name, stored path) for each path it changed.
    """
    c = Confiner(root)
    _confine_datablocks(c)
    _confine_libraries(c)
    _confine_fonts(c)
    _confine_scenes(c)
    _confine_objects(c)
    _confine_nodes(c)
    return c.cut
