"""The Renderdrop panel in Render Properties, "Render on the farm…" in the Render menu, and the job's
progress in the status bar."""

import os

import bpy
import bpy.utils.previews

from . import session

_previews = None


def _preview_icon():
    """The icon of the last rendered frame, loaded once per new frame."""
    path = session.state.preview_path
    if not path or not os.path.isfile(path) or _previews is None:
        return 0
    key = "frame-%d" % session.state.preview_version
    if key not in _previews:
        _previews.load(key, path, "IMAGE")
    return _previews[key].icon_id


class RENDERDROP_PT_panel(bpy.types.Panel):
    bl_label = "Renderdrop"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "render"

    def draw(self, context):
        layout = self.layout
        state = session.state
        if not bpy.data.filepath:
            layout.label(text="Save the scene to send it to the farm.", icon="INFO")
        layout.operator("renderdrop.submit", icon="RENDER_ANIMATION")
        if state.message:
            layout.label(text=state.message)
        if state.phase == "review" and state.review:
            box = layout.box()
            for label, value in state.review.get("rows", []):
                row = box.row()
                row.label(text=label)
                row.label(text=value)
            for warning in state.review.get("warnings", []):
                box.label(text=warning, icon="ERROR")
            layout.operator("renderdrop.start", icon="PLAY")
        if state.phase == "rendering":
            layout.label(text=session.status_text())
        icon = _preview_icon()
        if icon:
            layout.label(text="Last rendered frame:")
            layout.template_icon(icon_value=icon, scale=8.0)
        if state.job_id or state.phase == "app":
            row = layout.row()
            row.operator("renderdrop.open_in_app", icon="WINDOW")
            row.operator("renderdrop.open_frames_folder", icon="FILE_FOLDER")


def _menu_entry(self, context):
    self.layout.separator()
    self.layout.operator("renderdrop.submit", icon="RENDER_ANIMATION")


def _status_bar(self, context):
    text = session.status_text()
    if text:
        self.layout.label(text=text, icon="RENDER_ANIMATION")


def register():
    global _previews
    _previews = bpy.utils.previews.new()
    bpy.utils.register_class(RENDERDROP_PT_panel)
    bpy.types.TOPBAR_MT_render.append(_menu_entry)
    bpy.types.STATUSBAR_HT_header.append(_status_bar)


def unregister():
    global _previews
    bpy.types.STATUSBAR_HT_header.remove(_status_bar)
    bpy.types.TOPBAR_MT_render.remove(_menu_entry)
    bpy.utils.unregister_class(RENDERDROP_PT_panel)
    if _previews is not None:
        bpy.utils.previews.remove(_previews)
        _previews = None
