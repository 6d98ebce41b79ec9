"""Helpers shared by the scripts Renderdrop runs inside Blender."""

import re
import sys


def script_args():
    """The arguments after `--` on Blender's command line."""
    return sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []


def out_path(script):
    """The JSON output path, the first argument after `--`."""
    argv = script_args()
    if not argv:
        raise SystemExit("%s: missing output path after --" % script)
    return argv[0]


def enum_choices(owner, attr):
    """The values a dynamic enum accepts now (Blender lists them when given an unknown one)."""
    try:
        setattr(owner, attr, "\x01renderdrop-probe")
    except TypeError as err:
        found = re.search(r"not found in \((.*)\)\s*$", str(err))
        if found:
            return re.findall(r"'((?:[^'\\]|\\.)*)'", found.group(1))
    return [getattr(owner, attr)]


def compositor_tree(scene):
    """The compositor node tree (Blender 5 moved it to scene.compositing_node_group)."""
    tree = getattr(scene, "compositing_node_group", None)
    return tree if tree is not None else getattr(scene, "node_tree", None)
