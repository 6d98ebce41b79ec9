"""A stand-in `bpy`, enough for the add-on's modules to import and run outside Blender."""

import os
import sys
import types

ADDON_PARENT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "addon"))
sys.path.insert(0, ADDON_PARENT)


class _Anything:
    """Any attribute, any call: a Blender API the test does not look at."""

    def __getattr__(self, name):
        return _Anything()

    def __call__(self, *args, **kwargs):
        return _Anything()


def _stand_in_bpy():
    bpy = types.ModuleType("bpy")
    bpy.types = types.SimpleNamespace(Operator=object, Panel=object, AddonPreferences=object, Menu=object, TOPBAR_MT_render=_Anything(), STATUSBAR_HT_header=_Anything())
    bpy.props = types.SimpleNamespace(StringProperty=lambda **k: None, EnumProperty=lambda **k: None, BoolProperty=lambda **k: None)
    bpy.utils = types.SimpleNamespace(register_class=lambda c: None, unregister_class=lambda c: None, previews=_Anything())
    bpy.path = types.SimpleNamespace(abspath=lambda p: p)
    bpy.data = types.SimpleNamespace(filepath="", is_dirty=False)
    bpy.app = types.SimpleNamespace(background=True, timers=types.SimpleNamespace(register=lambda *a, **k: None, is_registered=lambda f: True))
    bpy.context = _Anything()
    bpy.ops = _Anything()
    return bpy


if "bpy" not in sys.modules:
    _bpy = _stand_in_bpy()
    _bpy.__path__ = []
    _utils = types.ModuleType("bpy.utils")
    _utils.register_class = _bpy.utils.register_class
    _utils.unregister_class = _bpy.utils.unregister_class
    _utils.previews = types.ModuleType("bpy.utils.previews")
    _utils.previews.new = lambda: _Anything()
    _utils.previews.remove = lambda p: None
    _utils.__path__ = []
    _bpy.utils = _utils
    sys.modules.update({"bpy": _bpy, "bpy.utils": _utils, "bpy.utils.previews": _utils.previews})
