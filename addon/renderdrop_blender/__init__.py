"""Renderdrop for Blender: send the open scene to a render farm through Renderdrop.

The add-on hands the saved scene to the running Renderdrop app when there is one (it shows its review
sheet), else to the `renderdrop` command, and follows the job in Blender's status bar and in the
Renderdrop panel of the Render Properties. Its operators live in `bpy.ops.renderdrop`; in background
mode (`blender -b scene.blend --python-expr "import bpy; bpy.ops.renderdrop.submit()"`) `submit` sends
the scene, starts the render and prints the job id.
"""

bl_info = {
    "name": "Renderdrop",
    "author": "Renderdrop",
    "version": (0, 1, 0),
    "blender": (3, 3, 0),
    "location": "Properties > Render > Renderdrop; Render > Render on the farm",
    "description": "Send the open scene to a render farm through Renderdrop, and follow it while it renders",
    "category": "Render",
}

import bpy  # noqa: E402

from . import operators, preferences, ui  # noqa: E402

_MODULES = (preferences, operators, ui)


def register():
    for module in _MODULES:
        module.register()


def unregister():
    for module in reversed(_MODULES):
        module.unregister()
