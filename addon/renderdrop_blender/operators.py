"""The operators in `bpy.ops.renderdrop`: submit, save_and_submit, start, open_in_app,
open_frames_folder (and report, which puts a line in the info area for the background thread)."""

import os
import sys

import bpy

from . import cli, handover, session
from .locate import find_cli
from .preferences import cli_path_setting


def _scene_problem():
    """Why the open scene cannot be sent as it is on disk, or None."""
    if not bpy.data.filepath:
        return cli.NOT_SAVED
    if bpy.data.is_dirty:
        return cli.UNSAVED_CHANGES
    return None


def _submit_in_background(op):
    """Background mode: sends the scene and starts the render, to the end, without any UI; the job's
    warnings go to the console, one line each."""
    problem = _scene_problem()
    try:
        if problem:
            raise cli.RenderdropError(problem)
        command = find_cli(cli_path_setting())
        if command is None:
            raise cli.RenderdropError(cli.not_found())
        outcome = cli.submit(command, bpy.data.filepath, wait=op.wait, download=bpy.path.abspath(op.download) if op.download else None)
    except cli.RenderdropError as error:
        print(error.line, file=sys.stderr, flush=True)
        return {"CANCELLED"}
    print("Renderdrop job: %s" % outcome.get("jobId"), flush=True)
    for line in session.warning_lines(outcome.get("warnings")):
        print(line, flush=True)
    if outcome.get("downloadedTo"):
        print("Renderdrop frames: %s" % outcome["downloadedTo"], flush=True)
    return {"FINISHED"}


class RENDERDROP_OT_submit(bpy.types.Operator):
    """Send the saved scene to Renderdrop to render on the farm"""

    bl_idname = "renderdrop.submit"
    bl_label = "Render on the farm\u2026"

    wait: bpy.props.BoolProperty(name="Wait", description="In background mode, follow the job until it ends", default=False, options={"SKIP_SAVE"})
    download: bpy.props.StringProperty(name="Download to", description="In background mode, download the frames into this folder when done", default="", subtype="DIR_PATH", options={"SKIP_SAVE"})

    @classmethod
    def poll(cls, context):
        return not session.busy()

    def invoke(self, context, event):
        if not bpy.data.filepath:
            self.report({"ERROR"}, cli.NOT_SAVED)
            bpy.ops.wm.save_as_mainfile("INVOKE_DEFAULT")
            return {"CANCELLED"}
        if bpy.data.is_dirty:
            bpy.ops.renderdrop.save_and_submit("INVOKE_DEFAULT")
            return {"CANCELLED"}
        return self.execute(context)

    def execute(self, context):
        if bpy.app.background:
            return _submit_in_background(self)
        problem = _scene_problem()
        if problem:
            self.report({"ERROR"}, problem)
            return {"CANCELLED"}
        session.send(bpy.data.filepath)
        return {"FINISHED"}


class RENDERDROP_OT_save_and_submit(bpy.types.Operator):
    """The farm renders the file on disk: save the scene, then send it"""

    bl_idname = "renderdrop.save_and_submit"
    bl_label = "Save the scene and send it to Renderdrop?"
    bl_options = {"INTERNAL"}

    def invoke(self, context, event):
        return context.window_manager.invoke_confirm(self, event)

    def execute(self, context):
        if bpy.ops.wm.save_mainfile() != {"FINISHED"}:
            return {"CANCELLED"}
        return bpy.ops.renderdrop.submit()


class RENDERDROP_OT_start(bpy.types.Operator):
    """Render the scene on the farm with the settings shown"""

    bl_idname = "renderdrop.start"
    bl_label = "Start"

    @classmethod
    def poll(cls, context):
        return session.state.phase == "review" and not session.busy()

    def execute(self, context):
        session.start()
        return {"FINISHED"}


class RENDERDROP_OT_open_in_app(bpy.types.Operator):
    """Open Renderdrop to follow the job"""

    bl_idname = "renderdrop.open_in_app"
    bl_label = "Open in Renderdrop"

    def execute(self, context):
        if handover.app_running():
            self.report({"INFO"}, "Renderdrop is open: the job is in its queue.")
            return {"FINISHED"}
        command = session.state.command or find_cli(cli_path_setting())
        if command is None:
            self.report({"ERROR"}, cli.not_found())
            return {"CANCELLED"}
        try:
            cli.open_app(command)
        except cli.RenderdropError as error:
            self.report({"ERROR"}, error.line)
            return {"CANCELLED"}
        return {"FINISHED"}


class RENDERDROP_OT_open_frames_folder(bpy.types.Operator):
    """Open the folder the frames were downloaded to"""

    bl_idname = "renderdrop.open_frames_folder"
    bl_label = "Open the frames folder"

    @classmethod
    def poll(cls, context):
        return bool(session.state.frames_dir) and os.path.isdir(session.state.frames_dir)

    def execute(self, context):
        bpy.ops.wm.path_open(filepath=session.state.frames_dir)
        return {"FINISHED"}


class RENDERDROP_OT_report(bpy.types.Operator):
    """Put one line from Renderdrop in the info area"""

    bl_idname = "renderdrop.report"
    bl_label = "Renderdrop message"
    bl_options = {"INTERNAL"}

    level: bpy.props.EnumProperty(items=[("INFO", "Info", ""), ("WARNING", "Warning", ""), ("ERROR", "Error", "")], default="INFO")
    message: bpy.props.StringProperty()

    def execute(self, context):
        self.report({self.level}, self.message)
        return {"FINISHED"}

    def invoke(self, context, event):
        # Blender shows only the reports of a running modal operator in its UI (those of an operator a
        # script calls go to the console), so the line is reported from the operator's first timer tick.
        wm = context.window_manager
        self._timer = wm.event_timer_add(0.01, window=context.window)
        wm.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        context.window_manager.event_timer_remove(self._timer)
        self.report({self.level}, self.message)
        return {"FINISHED"}


CLASSES = (
    RENDERDROP_OT_submit,
    RENDERDROP_OT_save_and_submit,
    RENDERDROP_OT_start,
    RENDERDROP_OT_open_in_app,
    RENDERDROP_OT_open_frames_folder,
    RENDERDROP_OT_report,
)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
