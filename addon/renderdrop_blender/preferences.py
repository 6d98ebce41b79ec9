"""The add-on's preferences: where the `renderdrop` command is, when it is not found by itself."""

import bpy

ADDON_ID = __package__


class RENDERDROP_AP_preferences(bpy.types.AddonPreferences):
    bl_idname = ADDON_ID

    cli_path: bpy.props.StringProperty(
        name="renderdrop command",
        description="The renderdrop program to use. Empty: the running Renderdrop app, else renderdrop on PATH, else the one that installed this add-on",
        subtype="FILE_PATH",
        default="",
    )

    def draw(self, context):
        self.layout.prop(self, "cli_path")


def cli_path_setting():
    """The configured path of the renderdrop command, or ''."""
    addon = bpy.context.preferences.addons.get(ADDON_ID)
    return addon.preferences.cli_path if addon else ""


def register():
    bpy.utils.register_class(RENDERDROP_AP_preferences)


def unregister():
    bpy.utils.unregister_class(RENDERDROP_AP_preferences)
